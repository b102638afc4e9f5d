#!/usr/bin/env bash
# docs/openapi-3.0.json as a Perl client reads it: OpenAPI::Client (one method per operationId,
# each request validated against the document before it is sent) drives a flow against the
# built server (scripts/perl-openapi/flow.pl), and every answer is validated against the document
# with JSON::Validator::Schema::OpenAPIv3. Opt-in, like check:go-openapi: it needs Debian's
# libopenapi-client-perl (OpenAPI::Client, JSON::Validator, Mojolicious; nothing is downloaded).
# Usage: scripts/check-perl-openapi.sh [--no-build] [document]   (default docs/openapi-3.0.json)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if ! perl -MOpenAPI::Client -MJSON::Validator::Schema::OpenAPIv3 -MMojolicious -e 1 2>/dev/null; then
  echo "check-perl-openapi: needs apt-get install -y --no-install-recommends libopenapi-client-perl" >&2
  exit 2
fi
build=1
if [ "${1:-}" = "--no-build" ]; then build=0; shift; fi
cd "$root"
# The flow runs against packages/server/dist: built first, as check:generators does.
if [ "$build" = 1 ]; then npm run -s build -w @siteaudit/schema -w @siteaudit/server; fi
exec npx tsx scripts/perl-openapi/serve.ts "${1:-$root/docs/openapi-3.0.json}"
