package report_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/agenteval/agenteval/report"
)

func ExampleRead() {
	results := strings.Join([]string{
		`{"record":"plan","run_id":"r1","total_jobs":4,"agent":"demo"}`,
		`{"record":"job","id":"greet/-/run-1","index":0,"scenario":"greet","run":1,"completed":true,"passed":true,"duration_ms":1200}`,
		`{"record":"job","id":"greet/-/run-2","index":1,"scenario":"greet","run":2,"completed":true,"passed":false,"duration_ms":900}`,
		`{"record":"job","id":"greet/-/run-3","index":2,"scenario":"greet","run":3,"completed":false,"error":"timeout"}`,
		// run 3 was resumed and completed: the completed record wins.
		`{"record":"job","id":"greet/-/run-3","index":2,"scenario":"greet","run":3,"completed":true,"passed":true,"duration_ms":1500}`,
	}, "\n")
	in := report.Input{Name: "results.jsonl", R: strings.NewReader(results), Size: int64(len(results))}
	r, err := report.Read([]report.Input{in}, report.Options{K: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := r.Summary()
	sc := s.Scenarios[0]
	fmt.Printf("%s: %d/%d passed, %d completed, flaky=%t\n", sc.ID, sc.Passed, sc.Runs, sc.Completed, sc.Combinations[0].Flaky)
	fmt.Printf("pass rate %.3f, 95%% CI [%.3f, %.3f]\n", sc.PassRate, sc.PassInterval.Lower, sc.PassInterval.Upper)
	fmt.Printf("pass@2 %.3f, pass^2 %.3f\n", sc.Chosen.PassAtK, sc.Chosen.PassHatK)
	fmt.Printf("missing %v, duplicates %d\n", s.Missing, s.Duplicates)
	// Output:
	// greet: 2/3 passed, 3 completed, flaky=true
	// pass rate 0.667, 95% CI [0.208, 0.939]
	// pass@2 1.000, pass^2 0.333
	// missing [{3 3}], duplicates 1
}

func ExampleWrite() {
	results := `{"record":"plan","run_id":"r1","total_jobs":2}
{"record":"job","id":"s/-/run-1","index":0,"scenario":"s","run":1,"completed":true,"passed":true,"duration_ms":500}
`
	r, err := report.Read([]report.Input{{Name: "r.jsonl", R: strings.NewReader(results), Size: int64(len(results))}}, report.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := report.Write(os.Stdout, r, "markdown", report.WriteOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// # agenteval report
	//
	// Run `r1`
	//
	// | | |
	// | --- | --- |
	// | Pass rate | 100.0% (1/1) [20.7%, 100.0%] |
	// | Completion rate | 100.0% (1/1) [20.7%, 100.0%] |
	// | Failed (completed, not passed) | 0 |
	// | Incomplete | 0 |
	// | Flaky combinations | 0 |
	// | Jobs recorded | 1 of 2 |
	//
	// > [!WARNING]
	// > 1 job(s) have no record: indexes 1
	//
	// ## s
	//
	// Pass rate 100.0% (1/1) [20.7%, 100.0%] · completion 100.0% (1/1) [20.7%, 100.0%] · pass@3 n/a · pass^3 n/a · flaky 0/1 · p50 500 ms · p90 500 ms · 0 tokens
	//
	// | Combination | Runs | Passed | Pass rate [95% CI] | Completed | pass@3 | pass^3 | Flaky | p50 | p90 | p99 | Tokens |
	// | --- | ---: | ---: | --- | ---: | ---: | ---: | :---: | ---: | ---: | ---: | ---: |
	// | - | 1 | 1 | 100.0% [20.7%, 100.0%] | 1 | n/a | n/a |  | 500 ms | 500 ms | 500 ms | 0 |
}

func ExampleWrite_junit() {
	results := `{"record":"plan","run_id":"r1","total_jobs":2,"agent":"bot"}
{"record":"job","id":"triage/c1/run-1","index":0,"scenario":"triage","matrix":"models","combination":"c1","params":{"plugins[0].model":"small"},"run":1,"completed":true,"passed":true,"score":1,"reason":"all evaluations passed","strategy":"all_pass","duration_ms":1250}
{"record":"job","id":"triage/c1/run-2","index":1,"scenario":"triage","matrix":"models","combination":"c1","params":{"plugins[0].model":"small"},"run":2,"completed":true,"passed":false,"reason":"1 of 1 evaluations failed","strategy":"all_pass","evaluations":[{"type":"string_contains","scope":"step","step":0,"passed":false,"message":"reply does not contain \"bug\""}],"duration_ms":900}
`
	r, err := report.Read([]report.Input{{Name: "r.jsonl", R: strings.NewReader(results), Size: int64(len(results))}}, report.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := report.Write(os.Stdout, r, "junit", report.WriteOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <testsuites name="agenteval" tests="2" failures="1" errors="0" time="2.150">
	//   <testsuite name="triage (plugins[0].model=small)" tests="2" failures="1" errors="0" skipped="0" time="2.150">
	//     <properties>
	//       <property name="scenario" value="triage"></property>
	//       <property name="run_id" value="r1"></property>
	//       <property name="agent" value="bot"></property>
	//       <property name="matrix" value="models"></property>
	//       <property name="combination" value="c1"></property>
	//       <property name="plugins[0].model" value="small"></property>
	//     </properties>
	//     <testcase name="c1/run-1 (plugins[0].model=small)" classname="triage" time="1.250">
	//       <system-out>job: triage/c1/run-1 (index 0)
	// score: 1
	// verdict (all_pass): all evaluations passed
	// </system-out>
	//     </testcase>
	//     <testcase name="c1/run-2 (plugins[0].model=small)" classname="triage" time="0.900">
	//       <failure message="1 of 1 evaluations failed" type="failed">verdict (all_pass): 1 of 1 evaluations failed
	// - string_contains [run[0].evaluations]: reply does not contain &#34;bug&#34;
	// </failure>
	//       <system-out>job: triage/c1/run-2 (index 1)
	// score: 0
	// </system-out>
	//     </testcase>
	//   </testsuite>
	// </testsuites>
}
