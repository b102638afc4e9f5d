#!/usr/bin/env bash
# Runs docs/quickstart.md as a new user would: every `sh` block, in order, with curl and jq,
# against the built server (`siteaudit-server dev`) and a small local site, then checks that the
# PDF and the workbook were downloaded. Blocks preceded by `<!-- quickstart: not run … -->` set
# what this script sets itself (API, TOKEN, SITE). Part of CI (.ci/run); about 15 s.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/siteaudit-quickstart-XXXXXX")"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# The site to audit: a few pages with the usual defects.
site_port=$(free_port)
node -e "
const pages = {
  '/': '<!doctype html><html lang=\"en\"><head><title>Home of a small site</title></head><body><h1>Home</h1><a href=\"/about\">About</a> <a href=\"/missing\">Missing</a></body></html>',
  '/about': '<!doctype html><html><head><title>About</title></head><body><p>A short page.</p><a href=\"/\">Home</a></body></html>',
};
require('http').createServer((req, res) => {
  const body = pages[req.url];
  res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' }).end(body ?? 'not found');
}).listen($site_port, '127.0.0.1');
" &
pids+=($!)

# The server, as \`npm run dev\` starts it (the build of \`npm ci\`), on a free port.
api_port=$(free_port)
(cd "$work" && exec node "$root/packages/server/bin/siteaudit-server.js" dev --port "$api_port" --log-level warn >"$work/server.log" 2>&1) &
pids+=($!)
for _ in $(seq 1 150); do
  grep -q 'Token (shown once)' "$work/server.log" 2>/dev/null && break
  sleep 0.2
done
TOKEN=$(sed -n 's/^Token (shown once): //p' "$work/server.log")
[ -n "$TOKEN" ] || { cat "$work/server.log"; echo "quickstart: the dev server printed no token" >&2; exit 1; }
export API="http://127.0.0.1:$api_port/v1" TOKEN SITE="http://127.0.0.1:$site_port/"

# Every sh block of the walkthrough, except those marked as set by this script.
awk '
  /^<!-- quickstart: not run/ { skip = 1; next }
  /^```sh$/ { if (!skip) inblock = 1; else skipping = 1; next }
  /^```$/ { if (inblock) print ""; inblock = 0; skipping = 0; skip = 0; next }
  inblock { print }
' "$root/docs/quickstart.md" >"$work/walkthrough.sh"
[ "$(grep -c 'curl' "$work/walkthrough.sh")" -ge 10 ] || { echo "quickstart: too few curl lines extracted" >&2; exit 1; }

cd "$work"
timeout 180 bash -euo pipefail walkthrough.sh

head -c 5 report.pdf | grep -q '%PDF-' || { echo "quickstart: report.pdf is not a PDF" >&2; exit 1; }
head -c 2 report.xlsx | grep -q 'PK' || { echo "quickstart: report.xlsx is not a workbook" >&2; exit 1; }
echo "quickstart: every step of docs/quickstart.md ran; report.pdf and report.xlsx downloaded"
