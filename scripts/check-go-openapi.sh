#!/usr/bin/env bash
# docs/openapi-3.0.json as a Go stack reads it: kin-openapi (the loader and validator oapi-codegen
# is built on) validates the document, then every answer the generator flows recorded against it
# (scripts/go-openapi/main.go). Opt-in, like check:generators: it needs Debian's golang-go and
# golang-github-getkin-kin-openapi-dev (GOPATH mode: nothing is downloaded).
# Usage: scripts/check-go-openapi.sh [exchanges.json]   (without one, check:generators records them)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v go >/dev/null || [ ! -d /usr/share/gocode/src/github.com/getkin/kin-openapi ]; then
  echo "check-go-openapi: needs apt-get install golang-go golang-github-getkin-kin-openapi-dev" >&2
  exit 2
fi
exchanges=${1:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$exchanges" ]; then
  exchanges="$work/exchanges.json"
  (cd "$root" && npm run -s check:generators -- --exchanges "$exchanges")
fi
mkdir -p "$work/src/check"
cp "$root/scripts/go-openapi/main.go" "$work/src/check/"
cd "$work/src/check"
GO111MODULE=off GOPATH="$work:/usr/share/gocode" GOFLAGS= GOCACHE="$work/cache" go run main.go "$root/docs/openapi-3.0.json" "$exchanges"
