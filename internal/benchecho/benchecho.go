// Package benchecho writes the echo workload of bench/compare-promptfoo.sh
// for the benchmarks that measure parts of it in process (the YAML fast
// path, the loader, the whole CLI run), so that all of them read the file
// the script runs.
package benchecho

import (
	"strconv"
	"strings"
)

// Matrix returns the workload's matrix file with n inputs, as the script
// writes it: base_scenario base.scenario.yaml (bench/echo), one axis over
// run[0].input, "Question i: what is topic-i?" for i from 0.
func Matrix(n int) []byte {
	var m strings.Builder
	m.WriteString("name: m\ndescription: N inputs\nbase_scenario: base.scenario.yaml\nmatrix:\n  - parameter: \"run[0].input\"\n    values:\n")
	for i := range n {
		s := strconv.Itoa(i)
		m.WriteString(`      - "Question ` + s + `: what is topic-` + s + "?\"\n")
	}
	return []byte(m.String())
}
