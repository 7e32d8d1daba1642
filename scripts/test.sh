#!/usr/bin/env bash
# The tests: README.md's second command, and what CI runs (.ci/run).
#
# First it installs what the tests use and Go does not bring: Debian packages
# when run as root (a developer who is not root installs them by hand; a test
# whose tool is missing skips saying which and how to install it, and fails
# under CI=true), and npm packages into a cache folder. Then it checks the
# formatting, vets, runs staticcheck and runs the tests with the race
# detector, and the tests of examples/scale, a module of its own.
set -euo pipefail
cd "$(dirname "$0")/.."

# staticcheck runs from the Go module proxy at this version (no go.mod entry).
readonly staticcheck=honnef.co/go/tools/cmd/staticcheck@v0.8.2

# debian_packages maps each program the tests need (internal/testtool's
# table) to the Debian package that installs it.
declare -A debian_packages=(
	[chromium]=chromium          # report: HTML reports laid out in a real browser
	[xmllint]=libxml2-utils      # report, internal/xsd: JUnit checked against junit-10.xsd
	[shellcheck]=shellcheck      # examples/scale: the workflow's run: scripts
	[node]=nodejs                # cmd/agenteval: the Node agent kit
	[python3]=python3            # cmd/agenteval: the Python agent kit
	[ps]=procps                  # internal/proctest: no process left behind
	[setsid]=util-linux          # internal/proc: a process that leaves its group
	[gh]=gh                      # internal/githubfake, cli: GitHub's CLI against the GitHub fake (ghx's baseline mode)
)

# install_debian installs the packages whose program is missing: apt-get
# update once, then one install. An unreachable registry is said, not fatal:
# the tests that need what is missing say so in turn.
install_debian() {
	local missing=() tool
	for tool in "${!debian_packages[@]}"; do
		case $tool in
		chromium) command -v chromium >/dev/null || command -v chromium-browser >/dev/null ||
			command -v google-chrome >/dev/null || missing+=("${debian_packages[$tool]}") ;;
		*) command -v "$tool" >/dev/null || missing+=("${debian_packages[$tool]}") ;;
		esac
	done
	((${#missing[@]})) || return 0
	if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
		echo "test.sh: not root on Debian, so not installed: ${missing[*]} (the tests needing them skip)"
		return 0
	fi
	echo "test.sh: installing ${missing[*]}"
	if ! apt-get update -qq; then
		echo "test.sh: the Debian registry is unreachable: not installed: ${missing[*]}"
		return 0
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
		echo "test.sh: apt-get install failed: ${missing[*]} may be missing"
}

# npm_packages lists the npm packages the tests run (agent CLIs, as their
# adapters arrive: add the package here and its program to
# internal/testtool). They install into a cache folder outside the
# repository, whose bin/ joins PATH for the tests.
npm_packages=()
# ElizaOS for the eliza agent's tests (agent/eliza, cli's eliza_agent.txtar):
# the runtime, PGLite through plugin-sql, the message handling and actions
# of plugin-bootstrap, plugin-openai pointed at llm/llmtest. zod is listed
# because plugin-bootstrap imports it without declaring it (a project's
# hoisting hides that; a global install does not). Versions run on Node 20.
npm_packages+=(@elizaos/core@1.7.2 @elizaos/plugin-sql@1.7.2 @elizaos/plugin-bootstrap@1.7.2 @elizaos/plugin-openai@1.6.0 zod@4.6.7)
# The coding-agent CLIs the agent/opencode, agent/codex, agent/claudecode
# and agent/geminicli tests run (internal/testtool's "opencode", "codex",
# "claude" and "gemini").
npm_packages+=(opencode-ai@1.18.33 @openai/codex@0.171.0 @anthropic-ai/claude-code@2.1.332 @google/gemini-cli@0.61.0)
# The ElizaOS CLI itself, whose `report generate` must read the run files
# `agenteval report --format eliza` writes (internal/elizarun's test). It
# is installed without install scripts: its plugin-ollama's script runs
# bun before bun's own script has linked bun's binary. bun's script is run
# afterwards (it links the binary of its optional dependency
# @oven/bun-linux-x64, already installed from the registry); the CLI runs
# under bun (its bin starts with #!/usr/bin/env bun).
npm_packages_without_scripts=(@elizaos/cli@1.7.2)
npm_dir=${AGENTEVAL_NPM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/agenteval/npm}

# npm_installed reports whether package spec NAME@VERSION is in the cache
# folder at that version.
npm_installed() {
	local spec=$1 name version
	name=${spec%@*}
	version=${spec##*@}
	[[ -f $npm_dir/lib/node_modules/$name/package.json ]] &&
		grep -q "\"version\": *\"$version\"" "$npm_dir/lib/node_modules/$name/package.json"
}

# install_npm installs the packages not already in the cache folder at their
# versions, one install at a time (a lock on the folder: npm reinstalling
# over a tree another npm is changing fails with ENOTEMPTY and leaves it
# half removed). A failed install is retried once from a clean slate for
# the packages it was installing.
install_npm() {
	export PATH="$npm_dir/bin:$PATH"
	((${#npm_packages[@]})) || return 0
	if ! command -v npm >/dev/null; then
		echo "test.sh: npm is not installed, so not installed: ${npm_packages[*]}"
		return 0
	fi
	mkdir -p "$npm_dir"
	(
		flock 9
		local args=(install --global --no-fund --no-audit --prefix "$npm_dir" --cache "$npm_dir/cache")
		npm_install_missing "${args[@]}" -- "${npm_packages[@]}"
		npm_install_missing "${args[@]}" --ignore-scripts -- "${npm_packages_without_scripts[@]}"
		local bun=$npm_dir/lib/node_modules/@elizaos/cli/node_modules/bun
		if [[ -f $bun/install.js && ! -x $bun/bin/bun.exe ]]; then
			(cd "$bun" && node install.js) || echo "test.sh: linking bun for @elizaos/cli failed"
		fi
	) 9>"$npm_dir/.install.lock"
}

# npm_install_missing ARGS... -- SPECS... runs npm ARGS with the specs not
# installed at their versions yet; a failed install is retried once after
# removing what it left of those packages.
npm_install_missing() {
	local args=() missing=() spec
	while (($#)) && [[ $1 != -- ]]; do
		args+=("$1")
		shift
	done
	shift
	for spec in "$@"; do
		npm_installed "$spec" || missing+=("$spec")
	done
	((${#missing[@]})) || return 0
	echo "test.sh: npm installing ${missing[*]}"
	npm "${args[@]}" "${missing[@]}" && return 0
	for spec in "${missing[@]}"; do
		rm -rf "${npm_dir:?}/lib/node_modules/${spec%@*}"
	done
	npm "${args[@]}" "${missing[@]}" ||
		echo "test.sh: npm install failed (registry unreachable?): ${missing[*]} may be missing"
}

install_debian
install_npm

echo "test.sh: gofmt"
unformatted=$(git ls-files -z '*.go' | xargs -0 gofmt -l)
if [[ -n $unformatted ]]; then
	echo "gofmt would change:"
	echo "$unformatted"
	exit 1
fi

echo "test.sh: go vet and staticcheck"
go vet ./...
go run "$staticcheck" ./...

echo "test.sh: go test -race"
# cli's scripts run the four coding-agent CLIs as themselves (each message
# a Node or native program's start-up, several seconds on a loaded
# machine), and agent/eliza runs ElizaOS's own `elizaos scenario run`, which
# can take a package past go test's default 10 minutes.
go test -race -timeout 30m ./...

# examples/scale builds agenteval and runs its workflow and Kubernetes Jobs
# as local processes, 84 jobs several times over; under the race detector
# that took about 4 minutes, and its emulators are test code that races
# nothing of the library's, so it runs without -race.
echo "test.sh: examples/scale"
(
	cd examples/scale
	go vet ./...
	go run "$staticcheck" ./...
	go test ./...
)
