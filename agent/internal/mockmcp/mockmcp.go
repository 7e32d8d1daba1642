// Package mockmcp serves a scenario's setup.mocks to a coding-agent CLI as
// the tools of an MCP server over stdio, built on the official Go MCP SDK:
// one tool per mocked service.method, each call answered by the job's own
// mocks (matching, delays, errors and probabilities as for any agent) and so
// recorded as a mock call in the job's record.
//
// The MCP server runs in the job's process, where the mocks are; the CLI
// starts a stdio server as a program of its own, so the program it starts is
// this process's executable as a relay (RelayEnv set), which copies its
// standard input and output to and from the job's server over a loopback
// connection. Every binary that links this package (agenteval, a host's
// binary, a test binary) is such a relay: the relay runs from this
// package's init, before main.
package mockmcp

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenteval/agenteval/scenario"
)

// Name is the name the mocks' MCP server has in a CLI's configuration: its
// tools are mcp__mocks__SERVICE__METHOD in transcripts.
const Name = "mocks"

// RelayEnv names the environment variable that makes this process a relay:
// its value is the file holding the job server's address and token.
const RelayEnv = "AGENTEVAL_MCP_RELAY"

func init() {
	if file := os.Getenv(RelayEnv); file != "" {
		if err := relay(file, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "agenteval mock MCP relay:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// Caller answers service.method calls: the session's runner.MockCaller.
type Caller interface {
	Call(ctx context.Context, service, method string, args ...any) (any, error)
}

// Server is a session's mocks served as MCP tools on a loopback listener.
type Server struct {
	mcp    *mcp.Server
	ln     net.Listener
	token  string
	file   string // the relay's file: address and token
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]bool
}

// ToolName is the MCP tool of service.method: service__method, with what a
// model's tool name may not hold replaced by _ (the openai agent's names).
func ToolName(service, method string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
				return r
			}
			return '_'
		}, s)
	}
	if service == "" {
		return clean(method)
	}
	return clean(service) + "__" + clean(method)
}

// Start serves mocks (one tool per service.method, in file order) answered
// by caller, on a loopback port; dir is the session's private folder, where
// the relay's file is written. It returns nil when there are no mocks.
func Start(dir string, mocks []scenario.Mock, caller Caller) (*Server, error) {
	if len(mocks) == 0 {
		return nil, nil
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "agenteval-mocks", Version: "1"}, nil)
	seen := map[string]bool{}
	for _, m := range mocks {
		name := ToolName(m.Service, m.Method)
		if seen[name] {
			continue
		}
		seen[name] = true
		service, method := m.Service, m.Method
		desc := "Call " + method + "."
		if service != "" {
			desc = "Call " + service + "." + method + "."
		}
		srv.AddTool(&mcp.Tool{Name: name, Description: desc,
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":true}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return call(ctx, caller, service, method, req.Params.Arguments), nil
			})
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("mock MCP server: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mock MCP server: %w", err)
	}
	s := &Server{mcp: srv, ln: ln, token: hex.EncodeToString(b[:]), file: filepath.Join(dir, "mcp-mocks.relay"), conns: map[net.Conn]bool{}}
	if err := os.WriteFile(s.file, []byte(ln.Addr().String()+"\n"+s.token+"\n"), 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("mock MCP server: %w", err)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// call answers one tool call: the mock's response as JSON text (a text
// response as it is), or an error result the model sees.
func call(ctx context.Context, caller Caller, service, method string, raw json.RawMessage) *mcp.CallToolResult {
	var args map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &args); err != nil {
			return errorResult("the arguments are not a JSON object: " + err.Error())
		}
	}
	res, err := caller.Call(ctx, service, method, args)
	if err != nil {
		return errorResult(err.Error())
	}
	text, ok := res.(string)
	if !ok {
		b, err := json.Marshal(res)
		if err != nil {
			return errorResult("the mock's response is not JSON: " + err.Error())
		}
		text = string(b)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// accept serves each relay that connects with the token.
func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.conns == nil { // closed
			s.mu.Unlock()
			_ = c.Close()
			return
		}
		s.conns[c] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serve(c)
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
			_ = c.Close()
		}()
	}
}

// serve runs one MCP session on c once the relay gave the token.
func (s *Server) serve(c net.Conn) {
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	if err != nil || strings.TrimSpace(line) != s.token {
		return
	}
	ss, err := s.mcp.Connect(s.ctx, &mcp.IOTransport{Reader: io.NopCloser(r), Writer: c}, nil)
	if err != nil {
		return
	}
	_ = ss.Wait()
}

// Command is the stdio MCP server a CLI starts: this process's executable,
// as a relay to s.
func (s *Server) Command() (path string, env map[string]string, err error) {
	path, err = os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("mock MCP server: the relay is this program, whose path is unknown: %w", err)
	}
	return path, map[string]string{RelayEnv: s.file}, nil
}

// Close stops serving: the listener, every relay's connection and their
// MCP sessions.
func (s *Server) Close() error {
	if s == nil {
		return nil
	}
	err := s.ln.Close()
	s.cancel()
	s.mu.Lock()
	for c := range s.conns {
		_ = c.Close()
	}
	s.conns = nil
	s.mu.Unlock()
	s.wg.Wait()
	_ = os.Remove(s.file)
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// relay connects to the job's server named in file and copies in to it and
// its answers to out, until either side ends.
func relay(file string, in io.Reader, out io.Writer) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	addr, token, ok := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if !ok {
		return fmt.Errorf("%s: no address and token", file)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := io.WriteString(c, token+"\n"); err != nil {
		return err
	}
	go func() {
		_, _ = io.Copy(c, in)
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.CloseWrite() // the server ends the session, then the connection
		}
	}()
	// The relay ends when the server closes the connection: its session
	// ended, because our input did or the job's did. A reset is such an
	// end too: the server closes a connection with our unread input in it
	// (a wrong token, a job that ended mid-request), and the CLI on the
	// other side needs no error from us for that.
	_, err = io.Copy(out, c)
	if errors.Is(err, syscall.ECONNRESET) {
		err = nil
	}
	return err
}
