package github

import (
	"fmt"

	"github.com/agenteval/agenteval/fixture"
)

// The manager's account of what it found and did, resource by resource.

// addResource appends the report of a resource, OK until told otherwise.
func addResource(rep *fixture.Report, name, typ string, number int) *fixture.ResourceReport {
	rr := &fixture.ResourceReport{Name: name, Type: typ, Number: number, Outcome: fixture.OK}
	rep.Resources = append(rep.Resources, rr)
	return rr
}

// fail marks the resource failed with err.
func fail(rr *fixture.ResourceReport, err error) {
	rr.Outcome, rr.Cause, rr.Error = fixture.Failed, err, err.Error()
}

// did records an action: in a dry run it is planned, otherwise done.
func did(rr *fixture.ResourceReport, dryRun bool, format string, args ...any) {
	rr.Actions = append(rr.Actions, fmt.Sprintf(format, args...))
	if rr.Outcome == fixture.Failed {
		return
	}
	if dryRun {
		rr.Outcome = fixture.Planned
	} else {
		rr.Outcome = fixture.Changed
	}
}

// drifts records a difference from the seeded state.
func drifts(rr *fixture.ResourceReport, format string, args ...any) {
	rr.Drift = append(rr.Drift, fmt.Sprintf(format, args...))
	if rr.Outcome == fixture.OK {
		rr.Outcome = fixture.Drifted
	}
}
