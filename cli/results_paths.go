package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agenteval/agenteval/internal/elizarun"
)

// resultsFileName is the file `run --out DIR` writes in DIR.
const resultsFileName = "results.jsonl"

// resultsPaths expands report's arguments: a file stands for itself and a
// directory for the results.jsonl of every results folder under it, in
// lexical order, so the shards of a run (one folder each, as CI artifacts
// or a shared volume hold them) are named by their parent. A results folder
// is not searched further: its work/ and judge-cache/ are the run's own.
// A directory with no results folder stands for the ElizaOS run files under
// it (run-*.json, a matrix folder's runs/*.json).
func resultsPaths(args []string) ([]string, error) {
	var out []string
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil || !st.IsDir() {
			out = append(out, arg) // opening it says what is wrong
			continue
		}
		before := len(out)
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			file := filepath.Join(path, resultsFileName)
			st, err := os.Stat(file)
			switch {
			case err == nil && !st.IsDir():
				out = append(out, file)
				return filepath.SkipDir
			case err != nil && !errors.Is(err, fs.ErrNotExist):
				return err
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("open results: %w", err)
		}
		if len(out) == before {
			// No results folder: ElizaOS's own run files, as
			// `elizaos report generate DIR` finds them.
			err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && elizarun.IsRunFile(path) {
					out = append(out, path)
				}
				return err
			})
			if err != nil {
				return nil, fmt.Errorf("open results: %w", err)
			}
		}
		if len(out) == before {
			return nil, fmt.Errorf("open results: %s holds no %s: a directory stands for the %s of every results folder under it (run --out DIR), or for the ElizaOS run files (run-*.json) in it", arg, resultsFileName, resultsFileName)
		}
	}
	return out, nil
}
