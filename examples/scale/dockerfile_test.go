package scale

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// No Docker engine runs where these tests do (nor, in general, in CI), and
// hadolint is neither a Debian package nor a Go module. So the Dockerfile is
// checked by reading it: its stages, base images, user and build settings,
// and by running its build command as written (cross-compilation variables
// set to this machine) and checking that the binaries it makes are static.

// dockerInstruction is one instruction of a Dockerfile, continuation lines
// joined.
type dockerInstruction struct {
	Line int
	Cmd  string // upper case: FROM, RUN, COPY, ...
	Args string
}

// dockerStage is a FROM and the instructions after it.
type dockerStage struct {
	Base, Name string
	From       dockerInstruction
	Body       []dockerInstruction
}

// parseDockerfile reads the instructions of a Dockerfile: comments and
// blank lines skipped, backslash continuations joined, each instruction
// given to the stage its FROM opened (ARGs before the first FROM are global).
func parseDockerfile(t *testing.T, path string) (global []dockerInstruction, stages []*dockerStage) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	var cur strings.Builder
	start, line := 0, 0
	flush := func() {
		text := strings.TrimSpace(cur.String())
		cur.Reset()
		if text == "" {
			return
		}
		cmd, args, _ := strings.Cut(text, " ")
		in := dockerInstruction{Line: start, Cmd: strings.ToUpper(cmd), Args: strings.TrimSpace(args)}
		if in.Cmd == "FROM" {
			fields := strings.Fields(in.Args)
			var plain []string
			for _, fl := range fields {
				if !strings.HasPrefix(fl, "--") {
					plain = append(plain, fl)
				}
			}
			require.NotEmpty(t, plain, "%s:%d: FROM names no image", path, start)
			st := &dockerStage{Base: plain[0], From: in}
			if len(plain) == 3 && strings.EqualFold(plain[1], "AS") {
				st.Name = plain[2]
			}
			stages = append(stages, st)
			return
		}
		if len(stages) == 0 {
			global = append(global, in)
			return
		}
		stages[len(stages)-1].Body = append(stages[len(stages)-1].Body, in)
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		if cur.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if cur.Len() == 0 {
			start = line
		} else if strings.HasPrefix(trimmed, "#") {
			continue // a comment inside a continued instruction
		}
		if strings.HasSuffix(trimmed, `\`) {
			cur.WriteString(strings.TrimSuffix(trimmed, `\`) + " ")
			continue
		}
		cur.WriteString(trimmed)
		flush()
	}
	require.NoError(t, sc.Err())
	flush()
	return global, stages
}

// shellWords splits a command as sh would for the plain words a Dockerfile
// RUN uses: quotes group and are removed; nothing is expanded.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	require.Zero(t, quote, "unbalanced quote in %q", s)
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

var (
	imageOnce sync.Once
	imageBin  string
	imageErr  error
)

// imageBinaries builds the binaries the Dockerfile puts in its final image,
// with the Dockerfile's own build command, once per test binary; it returns
// the folder holding them.
func imageBinaries(t *testing.T) string {
	t.Helper()
	imageOnce.Do(func() {
		imageBin, imageErr = buildAsDockerfile(t)
	})
	require.NoError(t, imageErr)
	return imageBin
}

// buildCommand finds the build stage's `go build` RUN and returns its
// environment assignments and its words from "go" on, with BuildKit's
// --mount options dropped and TARGETOS/TARGETARCH set to this machine.
func buildCommand(t *testing.T, stages []*dockerStage) (env map[string]string, argv []string, out string) {
	t.Helper()
	vars := map[string]string{"TARGETOS": runtime.GOOS, "TARGETARCH": runtime.GOARCH}
	for _, st := range stages {
		for _, in := range st.Body {
			if in.Cmd != "RUN" || !strings.Contains(in.Args, "go build") {
				continue
			}
			env = map[string]string{}
			words := shellWords(t, in.Args)
			i := 0
			for ; i < len(words) && strings.HasPrefix(words[i], "--mount="); i++ {
			}
			for ; i < len(words) && regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`).MatchString(words[i]); i++ {
				k, v, _ := strings.Cut(words[i], "=")
				env[k] = os.Expand(v, func(name string) string { return vars[name] })
			}
			require.Greater(t, len(words), i+2, "line %d: no command after the variables", in.Line)
			argv = words[i:]
			require.Equal(t, []string{"go", "build"}, argv[:2], "line %d", in.Line)
			for j, w := range argv {
				if w == "-o" && j+1 < len(argv) {
					out = argv[j+1]
				}
			}
			require.NotEmpty(t, out, "line %d: go build has no -o", in.Line)
			return env, argv, out
		}
	}
	t.Fatal("the Dockerfile has no RUN ... go build")
	return nil, nil, ""
}

func buildAsDockerfile(t *testing.T) (string, error) {
	_, stages := parseDockerfile(t, "Dockerfile")
	env, argv, out := buildCommand(t, stages)
	dir, err := os.MkdirTemp("", "agenteval-image-bin-")
	if err != nil {
		return "", err
	}
	// The folder outlives one test (several use it); it is removed at exit
	// by TestMain.
	imageDirs = append(imageDirs, dir)
	args := make([]string, len(argv)-1)
	for i, w := range argv[1:] {
		if w == out {
			w = dir + string(filepath.Separator)
		}
		args[i] = w
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = repoRoot(t)
	cmd.Env = cleanEnv(env)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v: %v\n%s", cmd.Args, err, b)
	}
	return dir, nil
}

// imageDirs are the folders imageBinaries made, removed after the tests.
var imageDirs []string

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range imageDirs {
		_ = os.RemoveAll(d)
	}
	os.Exit(code)
}

// TestDockerfileRecipe: two stages at least; the build stage compiles with
// CGO_ENABLED=0 and that build command, run here, makes static binaries;
// the final stage starts from a minimal base, copies only what the build
// made (plus the suite), runs as a numeric non-root user (so Kubernetes'
// runAsNonRoot can check it), has an exec-form entrypoint and carries no
// secret.
func TestDockerfileRecipe(t *testing.T) {
	t.Parallel()
	global, stages := parseDockerfile(t, "Dockerfile")
	require.GreaterOrEqual(t, len(stages), 2, "a multi-stage build")
	build, final := stages[0], stages[len(stages)-1]
	require.NotEmpty(t, build.Name, "the build stage is named, for COPY --from")
	assert.Regexp(t, `^golang:`, build.Base)
	assert.Contains(t, build.From.Args, "--platform=$BUILDPLATFORM", "cross-compiles rather than emulating the target")
	assert.Regexp(t, `^(gcr\.io/distroless/static(-debian\d+)?(:[\w.-]+)?(@sha256:[0-9a-f]{64})?|scratch)$`, final.Base, "a minimal final base")

	env, argv, out := buildCommand(t, stages)
	assert.Equal(t, "0", env["CGO_ENABLED"], "a static binary")
	assert.Contains(t, argv, "-trimpath")

	var user, entrypoint string
	copied := map[string]bool{}
	for _, in := range final.Body {
		switch in.Cmd {
		case "RUN":
			t.Errorf("line %d: the final stage runs nothing (its base has no shell): %s", in.Line, in.Args)
		case "USER":
			user = in.Args
		case "ENTRYPOINT":
			entrypoint = in.Args
		case "COPY":
			words := strings.Fields(in.Args)
			if strings.HasPrefix(words[0], "--from=") {
				assert.Equal(t, "--from="+build.Name, words[0], "line %d", in.Line)
				for _, src := range words[1 : len(words)-1] {
					assert.True(t, strings.HasPrefix(src, out), "line %d: %s is not something the build made in %s", in.Line, src, out)
					copied[strings.TrimPrefix(src, out)] = true
				}
				continue
			}
			for _, src := range words[:len(words)-1] {
				assert.DirExists(t, filepath.Join(repoRoot(t), src), "line %d: COPY %s from the context", in.Line, src)
			}
		}
	}
	uid, gid, ok := strings.Cut(user, ":")
	require.True(t, ok, "USER uid:gid, got %q", user)
	for _, id := range []string{uid, gid} {
		n, err := strconv.Atoi(id)
		require.NoError(t, err, "USER %q: numeric, so runAsNonRoot can check it", user)
		assert.NotZero(t, n, "USER %q is not root", user)
	}
	var ep []string
	require.NoError(t, json.Unmarshal([]byte(entrypoint), &ep), "ENTRYPOINT in exec form: %s", entrypoint)
	require.NotEmpty(t, ep)
	assert.True(t, copied[filepath.Base(ep[0])], "the entrypoint %s is a binary the build made", ep[0])

	secretName := regexp.MustCompile(`(?i)token|secret|password|passwd|api_?key|credential`)
	for _, in := range append(global, append(build.Body, final.Body...)...) {
		if in.Cmd == "ARG" || in.Cmd == "ENV" {
			assert.NotRegexp(t, secretName, in.Args, "line %d: a secret in an image layer", in.Line)
		}
	}

	bin := imageBinaries(t)
	for name := range copied {
		path := filepath.Join(bin, name)
		require.FileExists(t, path, "the build command makes %s", name)
		f, err := elf.Open(path)
		if err != nil {
			t.Skipf("%s is not ELF on %s: static linking not checked", name, runtime.GOOS)
		}
		for _, p := range f.Progs {
			assert.NotEqual(t, elf.PT_INTERP, p.Type, "%s asks for a dynamic loader: not static", name)
		}
		libs, err := f.ImportedLibraries()
		require.NoError(t, err)
		assert.Empty(t, libs, "%s links shared libraries", name)
		require.NoError(t, f.Close())
	}
}

// TestDockerignoreKeepsTheSources: the build context's ignore file leaves
// everything the Dockerfile copies.
func TestDockerignoreKeepsTheSources(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("Dockerfile.dockerignore")
	require.NoError(t, err)
	needed := []string{"go.mod", "go.sum", "cmd/agenteval/main.go", "examples/demo-agent/main.go", "examples/scenarios/weather.scenario.yaml", "runner/runner.go"}
	for _, line := range strings.Split(string(b), "\n") {
		pattern := strings.TrimSpace(line)
		if pattern == "" || strings.HasPrefix(pattern, "#") {
			continue
		}
		for _, path := range needed {
			for p := path; p != "."; p = filepath.Dir(p) {
				m, err := filepath.Match(strings.TrimPrefix(pattern, "**/"), p)
				require.NoError(t, err, pattern)
				assert.False(t, m, "%q excludes %s from the build", pattern, path)
			}
		}
	}
}
