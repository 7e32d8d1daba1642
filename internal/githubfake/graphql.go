package githubfake

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// maxCachedDocs bounds the parsed-document cache; clients send a handful of
// distinct documents, so this is only a guard against unbounded growth.
const maxCachedDocs = 512

type graphQLRequest struct {
	Query         string         `json:"query"`
	OperationName string         `json:"operationName"`
	Variables     map[string]any `json:"variables"`
}

type graphQLResponse struct {
	Data   any        `json:"data"`
	Errors []gqlError `json:"errors,omitempty"`
}

func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	// A resolver defect should fail the request loudly, not drop the
	// connection (net/http's own recovery) and leave the client guessing.
	defer func() {
		if p := recover(); p != nil {
			writeRESTError(w, http.StatusInternalServerError, fmt.Sprintf("githubtest: internal error: %v", p))
		}
	}()
	var req graphQLRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeRESTError(w, http.StatusBadRequest, "Problems parsing JSON")
		return
	}
	setDocument(r, req.Query)
	doc, errs := s.parse(req.Query)
	if errs != nil {
		setOperation(r, "invalid")
		writeJSON(w, http.StatusOK, graphQLResponse{Errors: errs})
		return
	}
	op, err := pickOperation(doc, req.OperationName)
	if err != nil {
		setOperation(r, "invalid")
		writeJSON(w, http.StatusOK, graphQLResponse{Errors: []gqlError{{Message: err.Error()}}})
		return
	}
	setOperation(r, operationLabel(op))
	vars, err := validator.VariableValues(s.schema, op, req.Variables)
	if err == nil {
		err = checkVariables(s.schema, op, vars)
	}
	if err != nil {
		writeJSON(w, http.StatusOK, graphQLResponse{Errors: toGQLErrors(err)})
		return
	}
	data, errs := s.execute(op, vars, actor(r))
	var buf bytes.Buffer
	buf.WriteString(`{"data":`)
	if err := appendJSON(&buf, data); err != nil {
		writeJSON(w, http.StatusInternalServerError, graphQLResponse{Errors: []gqlError{{Message: "githubtest: encode response: " + err.Error()}}})
		return
	}
	if len(errs) > 0 {
		b, _ := json.Marshal(errs)
		buf.WriteString(`,"errors":`)
		buf.Write(b)
	}
	buf.WriteString("}\n")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(buf.Bytes())
}

// parse parses and validates a document against the served schema, reusing
// earlier results for the same text.
func (s *Server) parse(query string) (*ast.QueryDocument, []gqlError) {
	s.ctl.Lock()
	doc := s.docs[query]
	s.ctl.Unlock()
	if doc != nil {
		return doc, nil
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return nil, toGQLErrors(err)
	}
	if list := validate(s.schema, doc); len(list) > 0 {
		return nil, toGQLErrors(list)
	}
	s.ctl.Lock()
	if len(s.docs) >= maxCachedDocs {
		clear(s.docs)
	}
	s.docs[query] = doc
	s.ctl.Unlock()
	return doc, nil
}

// validate checks doc against the schema with gqlparser's rules but one
// check GitHub does not make: that a field selected on two different object
// types of a union or interface returns the same type on both (gh sends
// `... on Issue { state } ... on PullRequest { state }`, IssueState and
// PullRequestState, and GitHub answers it).
func validate(schema *ast.Schema, doc *ast.QueryDocument) gqlerror.List {
	return slices.DeleteFunc(validator.ValidateWithRules(schema, doc, nil), func(e *gqlerror.Error) bool {
		return e.Rule == "OverlappingFieldsCanBeMerged" && strings.Contains(e.Message, "they return conflicting types")
	})
}

func pickOperation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, error) {
	if name != "" {
		if op := doc.Operations.ForName(name); op != nil {
			return op, nil
		}
		return nil, fmt.Errorf("No operation named %q", name)
	}
	if len(doc.Operations) != 1 {
		return nil, errors.New("An operation name is required when the document has several operations")
	}
	return doc.Operations[0], nil
}

// operationLabel names an operation for the request log, for example
// "query repository" or "mutation createIssue".
func operationLabel(op *ast.OperationDefinition) string {
	var roots []string
	for _, sel := range op.SelectionSet {
		if f, ok := sel.(*ast.Field); ok {
			roots = append(roots, f.Name)
		}
	}
	if len(roots) == 0 {
		roots = append(roots, "fragments")
	}
	return string(op.Operation) + " " + strings.Join(roots, ",")
}

// execute runs an operation under the model lock: shared for queries,
// exclusive for mutations (whose root fields GraphQL runs in order). actor
// is the login the request acts as; "" means the viewer.
func (s *Server) execute(op *ast.OperationDefinition, vars map[string]any, actor string) (any, []gqlError) {
	var root object
	var typeName string
	switch op.Operation {
	case ast.Mutation:
		s.mu.Lock()
		defer s.mu.Unlock()
		if actor != "" {
			// Mutations author what they create as st.viewer; the write
			// lock makes swapping it for this request safe.
			defer func(prev string) { s.st.viewer = prev }(s.st.viewer)
			s.st.viewer = actor
		}
		root, typeName = mutationRoot{s: s}, "Mutation"
	case ast.Query:
		s.mu.RLock()
		defer s.mu.RUnlock()
		root, typeName = queryRoot{}, "Query"
	default:
		return nil, []gqlError{{Message: "githubtest serves queries and mutations only"}}
	}
	if actor == "" {
		actor = s.st.viewer
	}
	ec := &execCtx{schema: s.schema, vars: vars, st: s.st, viewer: actor}
	data, ok := ec.selectObject(root, typeName, op.SelectionSet, nil)
	if !ok {
		return nil, ec.errs
	}
	return data, ec.errs
}

func toGQLErrors(err error) []gqlError {
	var list gqlerror.List
	if !errors.As(err, &list) {
		var one *gqlerror.Error
		if errors.As(err, &one) {
			list = gqlerror.List{one}
		}
	}
	if len(list) == 0 {
		return []gqlError{{Message: err.Error()}}
	}
	out := make([]gqlError, 0, len(list))
	for _, e := range list {
		ge := gqlError{Message: e.Message}
		for _, l := range e.Locations {
			ge.Locations = append(ge.Locations, location{Line: l.Line, Column: l.Column})
		}
		for _, p := range e.Path {
			switch p := p.(type) {
			case ast.PathName:
				ge.Path = append(ge.Path, string(p))
			case ast.PathIndex:
				ge.Path = append(ge.Path, int(p))
			}
		}
		out = append(out, ge)
	}
	return out
}
