package examples

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/shurcooL/githubv4"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// Agent is a small deterministic agent: rules, not a model, so that the
// examples give the same results on every machine without a network or
// keys. It shows the parts of an agent that evaluations look at: replies,
// actions (tool calls, through the scenario's mocks), files in the run's
// directory, memory across a conversation, and real work on GitHub.
type Agent struct {
	// GitHub, when set, is the client the agent uses to push commits
	// (pointed at githubtest's fake in the demo).
	GitHub *githubv4.Client
}

// NewSession starts a session; the agent remembers facts per session.
func (a *Agent) NewSession(_ context.Context, cfg runner.SessionConfig) (runner.Session, error) {
	return &session{agent: a, cfg: cfg}, nil
}

type session struct {
	agent *Agent
	cfg   runner.SessionConfig
	name  string
	turns int
}

var (
	nameRE    = regexp.MustCompile(`(?i)\bmy name is ([A-Z][a-z]+)`)
	weatherRE = regexp.MustCompile(`(?i)weather in ([A-Za-z ]+?)[?.!]*$`)
	prRE      = regexp.MustCompile(`(?i)PR #(\d+) in ([\w-]+)/([\w-]+(?:\.[\w-]+)*)`)
	fileRE    = regexp.MustCompile(`(?i)summari[sz]e ([\w./-]+)`)
)

func (s *session) Send(ctx context.Context, msg string) (runner.Reply, error) {
	s.turns++
	if m := nameRE.FindStringSubmatch(msg); m != nil {
		s.name = m[1]
	}
	switch lower := strings.ToLower(msg); {
	case strings.Contains(lower, "open issues"):
		return s.listIssues(ctx)
	case weatherRE.MatchString(msg):
		return s.weather(ctx, weatherRE.FindStringSubmatch(msg)[1])
	case prRE.MatchString(msg):
		m := prRE.FindStringSubmatch(msg)
		n, _ := strconv.Atoi(m[1])
		return s.fixPR(ctx, m[2], m[3], n)
	case fileRE.MatchString(msg):
		return s.summarise(fileRE.FindStringSubmatch(msg)[1])
	case strings.Contains(lower, "build fails"):
		return runner.Reply{Text: "I'm sorry to hear that. What error do you see when the build fails?"}, nil
	case strings.Contains(lower, "explain"):
		return runner.Reply{Text: s.greeting() + "Here's how to fix it: run `go mod tidy`, then rebuild. The error means a dependency is missing from go.sum."}, nil
	case strings.Contains(lower, "thank"):
		return runner.Reply{Text: s.greeting() + "Glad it works now. Happy building!"}, nil
	}
	return runner.Reply{Text: "You said: " + msg}, nil
}

func (s *session) greeting() string {
	if s.name == "" {
		return ""
	}
	return "Thanks, " + s.name + ". "
}

// listIssues asks the github service (mocked in the scenario) for open issues.
func (s *session) listIssues(ctx context.Context) (runner.Reply, error) {
	args := map[string]any{"repo": "acme/demo", "state": "open"}
	act := results.Action{Name: "LIST_GITHUB_ISSUES", Args: args, Start: time.Now()}
	res, err := s.cfg.Mocks.Call(ctx, "github", "listIssues", args)
	act.End = time.Now()
	if err != nil {
		act.Error = err.Error()
		return runner.Reply{Text: "I could not list the issues: " + err.Error(), Actions: []results.Action{act}}, nil
	}
	act.Result = res
	var titles []string
	if items, ok := res.([]any); ok {
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				titles = append(titles, fmt.Sprintf("#%v %v", m["number"], m["title"]))
			}
		}
	}
	return runner.Reply{Text: fmt.Sprintf("There are %d open issues in acme/demo: %s.", len(titles), strings.Join(titles, "; ")),
		Actions: []results.Action{act}, Usage: llm.Usage{PromptTokens: 12, CompletionTokens: 20, TotalTokens: 32}}, nil
}

// weather asks the weather service (mocked) for a city's forecast.
func (s *session) weather(ctx context.Context, city string) (runner.Reply, error) {
	args := map[string]any{"city": city}
	act := results.Action{Name: "GET_WEATHER", Args: args, Start: time.Now()}
	res, err := s.cfg.Mocks.Call(ctx, "weather", "forecast", args)
	act.End = time.Now()
	if err != nil {
		act.Error = err.Error()
		return runner.Reply{Text: "The weather service failed: " + err.Error(), Actions: []results.Action{act}}, nil
	}
	act.Result = res
	m, _ := res.(map[string]any)
	return runner.Reply{Text: fmt.Sprintf("The weather in %s: %v, %v°C.", city, m["condition"], m["temp_c"]), Actions: []results.Action{act}}, nil
}

// summarise reads a file of the run's directory and writes a summary next to it.
func (s *session) summarise(name string) (runner.Reply, error) {
	if s.cfg.Dir == "" {
		return runner.Reply{Text: "I have no workspace to read " + name + " from."}, nil
	}
	b, err := os.ReadFile(filepath.Join(s.cfg.Dir, filepath.FromSlash(name)))
	if err != nil {
		return runner.Reply{Text: "I could not read " + name + "."}, nil
	}
	var open []string
	for _, line := range strings.Split(string(b), "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "- [ ] "); ok {
			open = append(open, t)
		}
	}
	summary := fmt.Sprintf("%d open tasks: %s\n", len(open), strings.Join(open, ", "))
	act := results.Action{Name: "WRITE_FILE", Args: map[string]any{"path": "summary.txt"}, Start: time.Now()}
	if err := os.WriteFile(filepath.Join(s.cfg.Dir, "summary.txt"), []byte(summary), 0o644); err != nil {
		act.Error = err.Error()
	}
	act.End = time.Now()
	return runner.Reply{Text: "Summary of " + name + ": " + summary, Actions: []results.Action{act}}, nil
}

// fixPR pushes a fix commit to the pull request's branch on GitHub.
func (s *session) fixPR(ctx context.Context, owner, repo string, number int) (runner.Reply, error) {
	if s.agent.GitHub == nil {
		return runner.Reply{}, errors.New("this agent has no GitHub client")
	}
	var q struct {
		Repository struct {
			PullRequest struct {
				HeadRefName string
				HeadRefOid  githubv4.GitObjectID
			} `graphql:"pullRequest(number: $number)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	act := results.Action{Name: "pr.view", Args: map[string]any{"owner": owner, "name": repo, "prNumber": number}, Start: time.Now()}
	err := s.agent.GitHub.Query(ctx, &q, map[string]any{"owner": githubv4.String(owner), "name": githubv4.String(repo), "number": githubv4.Int(number)})
	act.End = time.Now()
	if err != nil {
		return runner.Reply{}, fmt.Errorf("reading PR #%d: %w", number, err)
	}
	var m struct {
		CreateCommitOnBranch struct {
			Commit struct{ Oid githubv4.GitObjectID }
		} `graphql:"createCommitOnBranch(input: $input)"`
	}
	head := q.Repository.PullRequest
	nwo := githubv4.String(owner + "/" + repo)
	branch := githubv4.String(head.HeadRefName)
	input := githubv4.CreateCommitOnBranchInput{
		Branch:          githubv4.CommittableBranch{RepositoryNameWithOwner: &nwo, BranchName: &branch},
		Message:         githubv4.CommitMessage{Headline: "Address review: fix the typo"},
		ExpectedHeadOid: head.HeadRefOid,
		FileChanges:     &githubv4.FileChanges{Additions: &[]githubv4.FileAddition{{Path: "README.md", Contents: githubv4.Base64String("IyBEZW1vCg==")}}},
	}
	push := results.Action{Name: "bash:git push", Args: map[string]any{"branch": head.HeadRefName}, Start: time.Now()}
	err = s.agent.GitHub.Mutate(ctx, &m, input, nil)
	push.End = time.Now()
	if err != nil {
		return runner.Reply{}, fmt.Errorf("pushing to %s: %w", head.HeadRefName, err)
	}
	return runner.Reply{Text: fmt.Sprintf("I read the unresolved review threads on PR #%d, fixed the typo and pushed commit %.7s to %s. I left the threads for the reviewer to resolve.",
		number, m.CreateCommitOnBranch.Commit.Oid, head.HeadRefName), Actions: []results.Action{act, push}}, nil
}

// NewGitHubClient returns a githubv4 client for endpoint (a GraphQL URL) over hc.
func NewGitHubClient(endpoint string, hc *http.Client) *githubv4.Client {
	return githubv4.NewEnterpriseClient(endpoint, hc)
}

func (s *session) Close() error { return nil }
