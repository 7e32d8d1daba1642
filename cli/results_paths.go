package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// resultsFileName is the file `run --out DIR` writes in DIR.
const resultsFileName = "results.jsonl"

// resultsPaths expands report's arguments: a file stands for itself and a
// directory for the results.jsonl of every results folder under it, in
// lexical order, so the shards of a run (one folder each, as CI artifacts
// or a shared volume hold them) are named by their parent. A results folder
// is not searched further: its work/ and judge-cache/ are the run's own.
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
			return nil, fmt.Errorf("open results: %s holds no %s: a directory stands for the %s of every results folder under it (run --out DIR)", arg, resultsFileName, resultsFileName)
		}
	}
	return out, nil
}
