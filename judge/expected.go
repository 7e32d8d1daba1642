package judge

import "github.com/agenteval/agenteval/internal/expect"

// samplePass decides one sample under e; see rawVerdict for the fields.
func samplePass(e expect.Expectation, r rawVerdict) (pass bool, score float64) {
	pass, score = r.resolve()
	switch e.Kind {
	case expect.KindScore:
		return e.MetBy(score), score
	case expect.KindYesNo:
		// An answer-style field ("judgment": "no") is the answer to the
		// question, so it passes when it equals the expected answer. A
		// pass-style field already means "expected outcome met".
		if r.pass == nil && r.answer != nil {
			pass = *r.answer == e.Yes
			if r.score == nil {
				score = 0
				if pass {
					score = 1
				}
			}
		}
	}
	return pass, score
}
