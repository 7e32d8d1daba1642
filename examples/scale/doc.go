// Package scale holds examples of running agenteval in shards on the
// engines teams already use: a GitHub Actions workflow
// (github-actions.yml), Kubernetes manifests (kubernetes/) and the
// container image they run (Dockerfile). It has no Go API; its tests lint
// the workflow with actionlint, decode the manifests strictly into the
// Kubernetes API types, build the image's binaries as the Dockerfile does,
// and run the workflow's scripts and the Jobs' containers as local
// processes, checking that the merged shards equal one unsharded run.
package scale
