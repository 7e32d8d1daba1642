#!/bin/sh
# Renders the sample report to HTML and screenshots it in headless Chromium.
# Usage: report/testdata/render-html.sh [OUT.png]   (run from anywhere)
# Exits 0 without doing anything when chromium is not installed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/../../report.png"}
bin=
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then bin=$b; break; fi
done
if [ -z "$bin" ]; then
	echo "render-html: chromium is not installed; skipping" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here/../.." && go run ./cmd/agenteval report --format html --out "$tmp/report.html" \
	"$here/shard-1.jsonl" "$here/shard-2.jsonl")
"$bin" --headless --no-sandbox --disable-gpu --screenshot="$out" --window-size=1200,1600 "file://$tmp/report.html"
echo "render-html: wrote $out"
