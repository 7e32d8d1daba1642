package scale

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// The manifests are validated offline by decoding them strictly into the
// Kubernetes API's own Go types (k8s.io/api, a test-only dependency): an
// unknown or misspelt field, a value of the wrong type, a bad quantity or
// a duplicate key is an error, as `kubectl apply --validate=strict` would
// report it. Rules the API server enforces beyond the types (and those
// this example relies on) are checked one by one below.

// manifest is one decoded Kubernetes object and the file it came from.
type manifest struct {
	File string
	Obj  any
}

// decodeStrict decodes every document of a manifest file into its kind's
// API type, refusing unknown fields and kinds this example does not use.
func decodeStrict(path string, data []byte) ([]any, error) {
	var out []any
	for i, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		if strings.TrimSpace(regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAllString(doc, "")) == "" {
			continue
		}
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", path, i+1, err)
		}
		var obj any
		switch tm.APIVersion + " " + tm.Kind {
		case "batch/v1 Job":
			obj = &batchv1.Job{}
		case "v1 PersistentVolumeClaim":
			obj = &corev1.PersistentVolumeClaim{}
		default:
			return nil, fmt.Errorf("%s: document %d: %q %q is not a kind this example uses", path, i+1, tm.APIVersion, tm.Kind)
		}
		// As the API server decodes with strict field validation: YAML
		// with no duplicate key, then JSON matched case-sensitively (the
		// standard library would take "completionmode" for completionMode)
		// with no unknown or duplicate field.
		j, err := yaml.YAMLToJSONStrict([]byte(doc))
		if err != nil {
			return nil, fmt.Errorf("%s: document %d (%s): %w", path, i+1, tm.Kind, err)
		}
		strict, err := kjson.UnmarshalStrict(j, obj)
		if err = errors.Join(append([]error{err}, strict...)...); err != nil {
			return nil, fmt.Errorf("%s: document %d (%s): %w", path, i+1, tm.Kind, err)
		}
		out = append(out, obj)
	}
	return out, nil
}

// loadManifests decodes every manifest of kubernetes/.
func loadManifests(t *testing.T) []manifest {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("kubernetes", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var all []manifest
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		objs, err := decodeStrict(f, b)
		require.NoError(t, err)
		for _, o := range objs {
			all = append(all, manifest{File: f, Obj: o})
		}
	}
	return all
}

// exampleObjects returns the example's three objects by role.
func exampleObjects(t *testing.T) (shards, merge *batchv1.Job, pvc *corev1.PersistentVolumeClaim) {
	t.Helper()
	for _, m := range loadManifests(t) {
		switch o := m.Obj.(type) {
		case *batchv1.Job:
			if o.Spec.CompletionMode != nil && *o.Spec.CompletionMode == batchv1.IndexedCompletion {
				require.Nil(t, shards, "one Indexed Job")
				shards = o
			} else {
				require.Nil(t, merge, "one merge Job")
				merge = o
			}
		case *corev1.PersistentVolumeClaim:
			require.Nil(t, pvc, "one volume claim")
			pvc = o
		}
	}
	require.NotNil(t, shards, "an Indexed Job (completionMode: Indexed)")
	require.NotNil(t, merge, "a merge Job")
	require.NotNil(t, pvc, "a PersistentVolumeClaim for the shared results")
	return shards, merge, pvc
}

// TestManifestsDecodeStrictly: the manifests are valid Kubernetes objects,
// and the validation is strict enough to catch the usual mistakes.
func TestManifestsDecodeStrictly(t *testing.T) {
	t.Parallel()
	require.Len(t, loadManifests(t), 3)

	shards, err := os.ReadFile(filepath.Join("kubernetes", "shards-job.yaml"))
	require.NoError(t, err)
	pvc, err := os.ReadFile(filepath.Join("kubernetes", "results-pvc.yaml"))
	require.NoError(t, err)
	for _, tt := range []struct {
		name     string
		src      []byte
		old, new string
		want     string
	}{
		{"a misspelt field", shards, "completionMode:", "completionmode:", `unknown field "spec.completionmode"`},
		{"a field in the wrong place", shards, "                secretKeyRef:", "                secretRef:", `unknown field "spec.template.spec.containers[0].env[1].valueFrom.secretRef"`},
		{"a number as a string", shards, "parallelism: 4", `parallelism: "4"`, "cannot unmarshal string into Go struct field JobSpec.spec.parallelism of type int32"},
		{"a bad quantity", pvc, "storage: 5Gi", "storage: 5 gigs", "quantities must match the regular expression"},
		{"a duplicate key", shards, "  parallelism: 4", "  parallelism: 4\n  parallelism: 2", `key "parallelism" already set in map`},
		{"a kind this example does not use", pvc, "kind: PersistentVolumeClaim", "kind: Secret", `"v1" "Secret" is not a kind this example uses`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, string(tt.src), tt.old)
			_, err := decodeStrict("broken.yaml", bytes.Replace(tt.src, []byte(tt.old), []byte(tt.new), 1))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// secretName matches environment variables that hold secrets.
var secretName = regexp.MustCompile(`(?i)token|secret|password|passwd|api_?key|credential|_pat$`)

// TestManifestsRunShardsSafely checks what the API server enforces beyond
// the types for the fields used here, and what this example promises: one
// results folder per shard on a shared ReadWriteMany volume, the shard count
// equal to the completions, secrets only from a Secret, pods that run as
// the image's non-root user with no privilege, and a merge over the folder
// the shards write.
func TestManifestsRunShardsSafely(t *testing.T) {
	t.Parallel()
	shards, merge, pvc := exampleObjects(t)
	spec := shards.Spec
	pod := spec.Template.Spec

	// batch/v1 validation for Indexed Jobs and the fields used here.
	require.NotNil(t, spec.Completions, "an Indexed Job needs completions")
	require.NotNil(t, spec.Parallelism)
	assert.LessOrEqual(t, *spec.Parallelism, *spec.Completions)
	assert.Equal(t, corev1.RestartPolicyNever, pod.RestartPolicy, "podFailurePolicy needs restartPolicy Never")
	require.NotNil(t, spec.BackoffLimitPerIndex, "each shard retried on its own")
	require.NotNil(t, spec.PodFailurePolicy)
	require.Len(t, pod.Containers, 1)
	ctr := pod.Containers[0]
	for _, rule := range spec.PodFailurePolicy.Rules {
		if rule.OnExitCodes != nil {
			require.NotNil(t, rule.OnExitCodes.ContainerName)
			assert.Equal(t, ctr.Name, *rule.OnExitCodes.ContainerName)
			if rule.Action == batchv1.PodFailurePolicyActionFailJob {
				assert.Equal(t, []int32{2}, rule.OnExitCodes.Values, "only bad input stops the whole Job")
			}
		}
	}

	// The command: agenteval run --shard auto, its count equal to completions.
	args := ctr.Args
	i := slices.Index(args, "--shard")
	require.GreaterOrEqual(t, i, 0, "%v", args)
	require.Equal(t, "auto", args[i+1])
	assert.Equal(t, "run", args[0])
	assert.Contains(t, args, "--resume", "a replaced pod continues its shard")
	assert.Contains(t, args, "--exit-zero", "failed evaluations do not make the Job retry")
	env := map[string]corev1.EnvVar{}
	for _, e := range ctr.Env {
		env[e.Name] = e
	}
	require.Contains(t, env, "AGENTEVAL_SHARDS")
	assert.Equal(t, strconv.Itoa(int(*spec.Completions)), env["AGENTEVAL_SHARDS"].Value, "the shard count is the number of completion indexes")
	out := flagValue(t, args, "--out")
	assert.Contains(t, out, "$(JOB_COMPLETION_INDEX)", "one results folder per shard: one writer per folder")

	// Secrets only from a Secret, never written in a manifest.
	for _, c := range allContainers(shards, merge) {
		for _, e := range c.Env {
			if secretName.MatchString(e.Name) {
				assert.Empty(t, e.Value, "%s: %s is written in the manifest", c.Name, e.Name)
				require.NotNil(t, e.ValueFrom, "%s: %s comes from a Secret", c.Name, e.Name)
				assert.NotNil(t, e.ValueFrom.SecretKeyRef, "%s: %s comes from a Secret", c.Name, e.Name)
			}
		}
		for _, a := range c.Args {
			assert.NotRegexp(t, `gh[pousr]_[A-Za-z0-9]{20,}|github_pat_|sk-[A-Za-z0-9]{20,}`, a)
		}
	}

	// Non-root, no privilege, the image's user.
	_, stages := parseDockerfile(t, "Dockerfile")
	var imageUser string
	for _, in := range stages[len(stages)-1].Body {
		if in.Cmd == "USER" {
			imageUser = in.Args
		}
	}
	for _, job := range []*batchv1.Job{shards, merge} {
		ps := job.Spec.Template.Spec
		require.NotNil(t, ps.SecurityContext, job.Name)
		sc := ps.SecurityContext
		require.NotNil(t, sc.RunAsNonRoot, job.Name)
		assert.True(t, *sc.RunAsNonRoot, job.Name)
		require.NotNil(t, sc.RunAsUser, job.Name)
		require.NotNil(t, sc.RunAsGroup, job.Name)
		assert.Equal(t, imageUser, fmt.Sprintf("%d:%d", *sc.RunAsUser, *sc.RunAsGroup), "%s runs as the image's user", job.Name)
		require.NotNil(t, sc.SeccompProfile, job.Name)
		assert.Equal(t, corev1.SeccompProfileTypeRuntimeDefault, sc.SeccompProfile.Type)
		require.NotNil(t, ps.AutomountServiceAccountToken, job.Name)
		assert.False(t, *ps.AutomountServiceAccountToken, "%s needs no API access", job.Name)
		for _, c := range append(slices.Clone(ps.InitContainers), ps.Containers...) {
			csc := c.SecurityContext
			require.NotNil(t, csc, c.Name)
			require.NotNil(t, csc.AllowPrivilegeEscalation, c.Name)
			assert.False(t, *csc.AllowPrivilegeEscalation, c.Name)
			require.NotNil(t, csc.ReadOnlyRootFilesystem, c.Name)
			assert.True(t, *csc.ReadOnlyRootFilesystem, c.Name)
			require.NotNil(t, csc.Capabilities, c.Name)
			assert.Equal(t, []corev1.Capability{"ALL"}, csc.Capabilities.Drop, c.Name)
			assert.Equal(t, ctr.Image, c.Image, "%s: every container runs the one image", c.Name)
		}
	}
	assert.NotContains(t, ctr.Image, ":latest", "an immutable tag: a resumed shard must run what it started with")

	// One shared volume: ReadWriteMany, claimed by both Jobs, mounted where
	// the shards write and the merge reads.
	assert.Equal(t, []corev1.PersistentVolumeAccessMode{corev1.ReadWriteMany}, pvc.Spec.AccessModes, "shards on different nodes write at once")
	shardsRoot := filepath.Dir(out)
	for _, job := range []*batchv1.Job{shards, merge} {
		claims := map[string]string{}
		for _, v := range job.Spec.Template.Spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				claims[v.Name] = v.PersistentVolumeClaim.ClaimName
			}
		}
		require.NotEmpty(t, claims, job.Name)
		for _, c := range allContainers(job) {
			mounted := false
			for _, m := range c.VolumeMounts {
				if claims[m.Name] == pvc.Name && strings.HasPrefix(shardsRoot, m.MountPath) {
					mounted = true
				}
			}
			assert.True(t, mounted, "%s/%s mounts %s over %s", job.Name, c.Name, pvc.Name, shardsRoot)
		}
	}
	for _, c := range allContainers(merge) {
		assert.Equal(t, "report", c.Args[0], c.Name)
		assert.Equal(t, shardsRoot, c.Args[len(c.Args)-1], "%s reads the folder of the shards' folders", c.Name)
	}
	var failMissing bool
	for _, c := range merge.Spec.Template.Spec.Containers {
		failMissing = failMissing || slices.Contains(c.Args, "--fail-missing")
	}
	assert.True(t, failMissing, "the merge fails when a shard is missing")
}

func allContainers(jobs ...*batchv1.Job) []corev1.Container {
	var out []corev1.Container
	for _, j := range jobs {
		out = append(out, j.Spec.Template.Spec.InitContainers...)
		out = append(out, j.Spec.Template.Spec.Containers...)
	}
	return out
}

// flagValue returns the value of --name=value or --name value in args.
func flagValue(t *testing.T, args []string, name string) string {
	t.Helper()
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	t.Fatalf("%s not in %v", name, args)
	return ""
}

// pod runs one container of the example's Jobs as a local process: the
// image's entrypoint and the container's args, its environment (values,
// Secret keys from secrets, and what Kubernetes adds), $(VAR) expanded as
// the kubelet does, and the image's and volumes' paths mapped to local
// folders.
type pod struct {
	c       corev1.Container
	entry   string            // the image's entrypoint, mapped
	paths   map[string]string // container path prefix → local folder
	secrets map[string]string // the Secret's keys
	extra   map[string]string // what Kubernetes sets, such as JOB_COMPLETION_INDEX
}

func (p pod) command(t *testing.T) *exec.Cmd {
	t.Helper()
	env := map[string]string{}
	for k, v := range p.extra {
		env[k] = v
	}
	for _, e := range p.c.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil:
			if v, ok := p.secrets[e.ValueFrom.SecretKeyRef.Key]; ok {
				env[e.Name] = v
			} else {
				require.True(t, e.ValueFrom.SecretKeyRef.Optional != nil && *e.ValueFrom.SecretKeyRef.Optional,
					"%s: the Secret lacks %s and it is not optional: the pod would not start", p.c.Name, e.ValueFrom.SecretKeyRef.Key)
			}
		case e.ValueFrom != nil:
			t.Fatalf("%s: %s: only Secret references are emulated", p.c.Name, e.Name)
		default:
			env[e.Name] = expandK8s(e.Value, env)
		}
	}
	args := make([]string, len(p.c.Args))
	for i, a := range p.c.Args {
		args[i] = p.mapPaths(expandK8s(a, env))
	}
	cmd := exec.Command(p.entry, args...)
	env["TMPDIR"] = p.mapPaths("/tmp")
	cmd.Env = cleanEnv(env)
	return cmd
}

// mapPaths replaces container paths (at the start of s or after = or :) by
// their local folders, in one pass, the longest prefix first.
func (p pod) mapPaths(s string) string {
	prefixes := make([]string, 0, len(p.paths))
	for k := range p.paths {
		prefixes = append(prefixes, regexp.QuoteMeta(k))
	}
	sort.Slice(prefixes, func(i, j int) bool { return len(prefixes[i]) > len(prefixes[j]) })
	re := regexp.MustCompile(`(^|[=:])(` + strings.Join(prefixes, "|") + `)(/|$)`)
	return re.ReplaceAllStringFunc(s, func(m string) string {
		sub := re.FindStringSubmatch(m)
		return sub[1] + p.paths[sub[2]] + sub[3]
	})
}

// expandK8s expands $(VAR) from env as the kubelet expands a container's
// args and env values: $$ is a literal $, an unknown $(VAR) stays as it is.
func expandK8s(s string, env map[string]string) string {
	return regexp.MustCompile(`\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)`).ReplaceAllStringFunc(s, func(m string) string {
		if m == "$$" {
			return "$"
		}
		if v, ok := env[m[2:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// TestKubernetesShardsMergeToTheWholeRun is issue 18's bar: the Indexed
// Job's pods, as local processes started together (index from
// JOB_COMPLETION_INDEX, count from the manifest's AGENTEVAL_SHARDS), one of
// them killed with SIGKILL part way and replaced by a pod with the same
// index (as the Job controller does), then the merge Job's containers in
// order, give exactly the jobs and verdicts of one unsharded run.
func TestKubernetesShardsMergeToTheWholeRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the image's binaries and runs 84 jobs several times")
	}
	t.Parallel()
	shards, merge, _ := exampleObjects(t)
	bin := imageBinaries(t)
	// The image's agent, slowed so that a shard lasts long enough to be
	// killed part way: each message reaches it after a pause (the program
	// is kept for many sessions, so a pause at its start would not do).
	dir := t.TempDir()
	podBin := filepath.Join(dir, "image-bin")
	require.NoError(t, os.MkdirAll(podBin, 0o755))
	for _, name := range []string{"agenteval", "demo-agent"} {
		b, err := os.ReadFile(filepath.Join(bin, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(podBin, name+".real"), b, 0o755))
	}
	require.NoError(t, os.Rename(filepath.Join(podBin, "agenteval.real"), filepath.Join(podBin, "agenteval")))
	require.NoError(t, os.WriteFile(filepath.Join(podBin, "demo-agent"), []byte(`#!/bin/sh
while IFS= read -r line; do
  case "$line" in *'"type":"message"'*) sleep 0.3 ;; esac
  printf '%s\n' "$line"
done | "$0.real" "$@"
`), 0o755))

	_, stages := parseDockerfile(t, "Dockerfile")
	var entry []string
	for _, in := range stages[len(stages)-1].Body {
		if in.Cmd == "ENTRYPOINT" {
			entry = shellWords(t, strings.NewReplacer("[", "", "]", "", ",", " ").Replace(in.Args))
		}
	}
	require.Len(t, entry, 1)
	volume := filepath.Join(dir, "pvc")
	suite := makeSuite(t)
	paths := map[string]string{"/usr/local/bin": podBin, "/suite": suite, "/results": volume}
	newPod := func(c corev1.Container, index int) pod {
		p := pod{c: c, paths: map[string]string{}, secrets: map[string]string{}, extra: map[string]string{}}
		for k, v := range paths {
			p.paths[k] = v
		}
		p.paths["/tmp"] = filepath.Join(dir, fmt.Sprintf("tmp-%s-%d", c.Name, index))
		require.NoError(t, os.MkdirAll(p.paths["/tmp"], 0o755))
		p.entry = p.mapPaths(entry[0])
		if index >= 0 {
			p.extra["JOB_COMPLETION_INDEX"] = strconv.Itoa(index)
		}
		return p
	}

	n := int(*shards.Spec.Completions)
	require.Equal(t, 4, n, "the issue's bar is 4 shards")
	ctr := shards.Spec.Template.Spec.Containers[0]
	outOf := func(index int) string {
		return newPod(ctr, index).mapPaths(expandK8s(flagValue(t, ctr.Args, "--out"), map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(index)}))
	}
	const victim = 2
	type exit struct {
		index int
		err   error
		log   string
	}
	exits := make(chan exit, n)
	var victimCmd *exec.Cmd
	var started sync.WaitGroup
	for index := 0; index < n; index++ {
		cmd := newPod(ctr, index).command(t)
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		require.NoError(t, cmd.Start())
		if index == victim {
			victimCmd = cmd
		}
		started.Add(1)
		go func(index int) {
			started.Done()
			err := cmd.Wait()
			exits <- exit{index, err, log.String()}
		}(index)
	}
	started.Wait()
	victimResults := filepath.Join(outOf(victim), "results.jsonl")
	recorded := waitForJobs(t, victimResults, 3)
	require.NoError(t, victimCmd.Process.Signal(syscall.SIGKILL))
	for range n {
		e := <-exits
		if e.index == victim {
			var ee *exec.ExitError
			require.True(t, errors.As(e.err, &ee), "the killed pod: %v", e.err)
			continue
		}
		require.NoError(t, e.err, "pod %d:\n%s", e.index, e.log)
		assert.Contains(t, e.log, fmt.Sprintf("shard %d/%d (from JOB_COMPLETION_INDEX=%d, AGENTEVAL_SHARDS=%d)", e.index+1, n, e.index, n))
	}
	_, before := readRuns(t, victimResults)
	require.Len(t, before, 1)
	jobsBefore, _ := readRuns(t, victimResults)
	require.GreaterOrEqual(t, len(jobsBefore), recorded)
	require.Less(t, int64(len(jobsBefore)), before[0].ShardJobs, "the kill came before the shard's end")
	t.Logf("pod %d killed with %d of its %d jobs recorded", victim, len(jobsBefore), before[0].ShardJobs)

	// The Job controller replaces the pod with one of the same index.
	replacement := newPod(ctr, victim).command(t)
	log, err := replacement.CombinedOutput()
	require.NoError(t, err, "%s", log)
	assert.Contains(t, string(log), fmt.Sprintf("%d skipped (already recorded)", len(jobsBefore)))

	// The unsharded run, with the same agent and suite.
	whole := filepath.Join(dir, "whole")
	cmd := exec.Command(filepath.Join(podBin, "agenteval"), "run", "--exit-zero", "--agent=exec:"+filepath.Join(podBin, "demo-agent"), "--out", whole, suite)
	cmd.Env = cleanEnv(nil)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	var shardFiles []string
	for index := 0; index < n; index++ {
		shardFiles = append(shardFiles, filepath.Join(outOf(index), "results.jsonl"))
	}
	assert.Equal(t, shardFiles, findResults(t, filepath.Join(volume, "shards")), "one folder per shard, nothing else")
	requireShardsEqualWhole(t, filepath.Join(whole, "results.jsonl"), n, shardFiles)

	// The merge Job: init containers in order, then the summary.
	ms := merge.Spec.Template.Spec
	var summary string
	for _, c := range append(slices.Clone(ms.InitContainers), ms.Containers...) {
		out, err := newPod(c, -1).command(t).CombinedOutput()
		require.NoError(t, err, "%s: %s", c.Name, out)
		summary = string(out)
	}
	assert.Contains(t, summary, "# agenteval report")
	assert.Contains(t, summary, "84 job(s)")
	for _, f := range []string{"report.html", "junit.xml", "summary.json"} {
		assert.FileExists(t, filepath.Join(volume, f))
	}
	agenteval := filepath.Join(podBin, "agenteval")
	assert.Equal(t, reportTotals(t, agenteval, filepath.Join(whole, "results.jsonl")), reportTotals(t, agenteval, filepath.Join(volume, "shards")))

	// A shard lost for good: the merge's last container fails, naming it.
	require.NoError(t, os.RemoveAll(outOf(1)))
	last := ms.Containers[len(ms.Containers)-1]
	out, err := newPod(last, -1).command(t).CombinedOutput()
	var ee *exec.ExitError
	require.True(t, errors.As(err, &ee), "%s", out)
	assert.Equal(t, 1, ee.ExitCode())
	assert.Contains(t, string(out), "a shard is missing or was cut short")
}
