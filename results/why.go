package results

import (
	"slices"
	"strings"
)

// maxWhyLength bounds Why's words.
const maxWhyLength = 300

// Why says in one line why a job did not pass, in words identical for
// identical failures so that they can be counted together: for a job that
// did not complete, its cause and error ("incomplete (agent_crash): ...");
// for a failed one, each failing evaluation as "type (description):
// message" and each failing checkpoint, or the verdict's reason when none
// failed (strict mocks). Empty for a passing job.
func (j *Job) Why() string {
	if j.Passed {
		return ""
	}
	if !j.Completed {
		cause := string(j.Cause)
		if cause == "" {
			cause = string(CauseNoVerdict)
		}
		msg := j.Error
		if msg == "" {
			msg = strings.TrimPrefix(j.Reason, "not completed: ")
		}
		return clipWhy("incomplete (" + cause + "): " + firstLine(msg))
	}
	var parts []string
	for _, e := range j.Evaluations {
		if e.Passed {
			continue
		}
		p := e.Type
		if e.Description != "" {
			p += " (" + e.Description + ")"
		}
		p += ": " + firstLine(e.Message)
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	for _, c := range j.Checkpoints {
		if c.Passed {
			continue
		}
		p := "checkpoint " + c.ID + ": expected " + c.Expected
		if c.Error != "" {
			p += " (" + firstLine(c.Error) + ")"
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return clipWhy(firstLine(j.Reason))
	}
	return clipWhy(strings.Join(parts, "; "))
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// clipWhy bounds a reason to maxWhyLength bytes, cut at a rune.
func clipWhy(s string) string {
	if len(s) <= maxWhyLength {
		return s
	}
	i := maxWhyLength
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + " …"
}
