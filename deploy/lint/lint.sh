#!/usr/bin/env bash
# Lints the public API descriptions with pinned standard linters (deploy/lint/package.json, package-lock.json):
#   docs/openapi.yaml   Redocly CLI, ruleset deploy/lint/redocly.yaml (recommended rules, strict)
#   docs/asyncapi.yaml  the AsyncAPI parser's validation (deploy/lint/validate-asyncapi.mjs)
# The first run installs the linters into deploy/lint/node_modules with npm ci (network once); later runs are
# offline (Redocly's telemetry and update check are switched off). deploy/local/test runs this first.
#   deploy/lint/lint.sh
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../local/lib.sh"

LINT_DIR="$REPO_ROOT/deploy/lint"
OPENAPI="$REPO_ROOT/docs/openapi.yaml"
ASYNCAPI="$REPO_ROOT/docs/asyncapi.yaml"
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1

command -v node >/dev/null && command -v npm >/dev/null ||
  die "lint: node and npm not found; install Node.js 20.19+ with npm (e.g. apt-get install nodejs npm), then re-run"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
  die "lint: Node.js $(node --version) is too old for the pinned Redocly CLI; install Node.js 20.19 or newer"

# (Re)install when node_modules is missing or older than the lock file (someone changed a pinned version).
if [[ ! -x "$LINT_DIR/node_modules/.bin/redocly" || "$LINT_DIR/package-lock.json" -nt "$LINT_DIR/node_modules/.package-lock.json" ]]; then
  step "lint: installing the pinned linters into deploy/lint/node_modules (npm ci)"
  (cd "$LINT_DIR" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) ||
    die "lint: npm ci in deploy/lint failed (see above); check access to the npm registry, then re-run"
fi

# Redocly prints a boxed notice about Node.js 20's end of life; it is not a finding.
without_banner() { grep -v -E '[╔║╚]' || true; }

status=0
step "lint: docs/openapi.yaml with Redocly CLI $(cd "$LINT_DIR" && node -p 'require("./node_modules/@redocly/cli/package.json").version') (deploy/lint/redocly.yaml)"
if ! (cd "$LINT_DIR" && node_modules/.bin/redocly lint --config redocly.yaml --format stylish "$OPENAPI" 2>&1) | without_banner; then
  status=1
fi
step "lint: docs/asyncapi.yaml with @asyncapi/parser $(cd "$LINT_DIR" && node -p 'require("./node_modules/@asyncapi/parser/package.json").version')"
(cd "$LINT_DIR" && node validate-asyncapi.mjs "$ASYNCAPI") || status=1

if ((status != 0)); then
  die "lint: the API descriptions have problems (listed above with file:line and rule); fix docs/openapi.yaml or docs/asyncapi.yaml (a rule turned off needs its reason in deploy/lint/redocly.yaml)"
fi
step "lint: docs/openapi.yaml and docs/asyncapi.yaml are clean"
