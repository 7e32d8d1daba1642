package githubfake

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// TestEveryServedFieldResolves checks that each field of each object type
// in the embedded schema has a resolver: the schema is generated from
// served.txt, the resolvers are written by hand, and this keeps them equal.
func TestEveryServedFieldResolves(t *testing.T) {
	s := NewServer(t)
	s.AddOrganization("acme")
	r := s.AddRepo("acme/demo")
	i := r.AddIssue(Issue{Title: "i", Comments: []Comment{{Body: "c"}}})
	pr := r.AddPullRequest(PullRequest{Title: "p", Head: "h"})
	pr.AddReviewThread(ReviewThread{Path: "a", Line: 1, Comments: []Comment{{Body: "x"}}})
	pr.AddCheckRun(CheckRun{Name: "build", Workflow: "CI", Annotations: []Annotation{{Path: "a", StartLine: 1, Message: "m"}}})
	pr.AddStatus(StatusContext{Context: "ci"})
	r.AddRelease(Release{TagName: "v1"})
	proj := s.AddOrganization("acme").AddProject(Project{Title: "P", Fields: []ProjectField{
		{Name: "S", DataType: "SINGLE_SELECT", Options: []string{"a"}}, {Name: "It", DataType: "ITERATION"}}})
	proj.AddIssue("acme/demo", i.Number())
	proj.AddDraft("d", "")
	s.mu.Lock()
	s.st.ensureAccount("someone[bot]")
	s.mu.Unlock()

	st := s.st
	rp := st.repo("acme", "demo")
	p := rp.pulls[0]
	th := p.threads[0]
	head := p.headTip()
	cr := head.checkRuns[0]
	prj := st.findAccount("acme").projects[0]
	conn := &connection{items: []any{rp}, end: 1}
	samples := map[string]object{
		"Query": queryRoot{}, "RateLimit": rateLimitInfo{}, "User": st.findAccount("octocat"),
		"Organization": st.findAccount("acme"), "Bot": st.findAccount("someone[bot]"), "Repository": rp,
		"Ref": rp.refs[0], "Commit": head, "GitActor": gitActor{c: head, st: st}, "PageInfo": &pageInfo{c: conn},
		"Label": nil, "Issue": rp.issues[0], "IssueComment": rp.issues[0].comments[0], "PullRequest": p,
		"PullRequestCommit": &pullCommit{pull: p, commit: head}, "PullRequestReview": p.reviews[0],
		"PullRequestReviewThread": th, "PullRequestReviewComment": th.comments[0], "PullRequestChangedFile": &changedFile{path: "a"},
		"StatusCheckRollup": rollup{c: head}, "CheckRun": cr, "CheckSuite": checkSuite{run: cr},
		"WorkflowRun": checkWorkflowRun{run: cr}, "Workflow": checkWorkflow{name: "CI"}, "CheckAnnotation": cr.annotations[0],
		"CheckAnnotationSpan": annotationSpan{a: cr.annotations[0]}, "CheckAnnotationPosition": annotationPos{line: 1},
		"StatusContext": head.statuses[0], "Release": rp.releases[0], "ProjectV2": prj,
		"ProjectV2Field": prj.fields[0], "ProjectV2SingleSelectField": prj.fields[1], "ProjectV2IterationField": prj.fields[2],
		"ProjectV2SingleSelectFieldOption": prj.fields[1].options[0], "ProjectV2Item": prj.items[0],
		"DraftIssue": prj.items[1].content.(*draftIssue),
	}
	samples["Label"] = st.newLabel(rp, Label{Name: "bug"})

	schema := Schema()
	ec := &execCtx{schema: schema, st: st}
	for name, def := range schema.Types {
		if def.Kind != ast.Object || def.BuiltIn || name == "Mutation" || strings.HasPrefix(name, "__") {
			continue
		}
		var obj object
		switch {
		case strings.HasSuffix(name, "Connection"):
			obj = conn
		case strings.HasSuffix(name, "Edge"):
			obj = &edge{cursor: "c", node: rp}
		case strings.HasSuffix(name, "Payload"):
			obj = payload{}
		default:
			obj = samples[name]
		}
		if obj == nil {
			t.Errorf("no sample object for %s", name)
			continue
		}
		if tn, ok := obj.(typed); ok && !strings.HasSuffix(name, "Connection") && tn.gqlType() != name {
			t.Errorf("sample for %s reports type %s", name, tn.gqlType())
		}
		for _, f := range def.Fields {
			args := map[string]any{"first": 1, "number": 1, "name": "demo", "owner": "acme", "login": "acme", "id": "R_1", "ids": []any{}, "qualifiedName": "main", "refPrefix": "refs/heads/", "tagName": "v1"}
			_, err := obj.resolve(ec, f.Name, args)
			if err != nil && strings.Contains(err.Error(), "has no resolver") && !strings.HasPrefix(f.Name, "__") {
				t.Errorf("%s.%s: %v", name, f.Name, err)
			}
		}
	}
	// Every mutation in the schema has an implementation.
	for _, f := range schema.Mutation.Fields {
		if _, ok := s.mutations[f.Name]; !ok {
			t.Errorf("mutation %s has no implementation", f.Name)
		}
	}
}
