#!/usr/bin/env bash
# Checks the README's two commands from a fresh clone of this repository:
# `npm install && npm start` (the main job on the embedded local knowledge base)
# and `npm test`. Usage: bash scripts/check-fresh-clone.sh [--skip-tests]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone --quiet "$repo" "$work/kbsync"
cd "$work/kbsync"
npm install --no-audit --no-fund
npm start
if [ "${1:-}" != "--skip-tests" ]; then
  npm test
fi
echo "fresh clone OK: $(git rev-parse --short HEAD)"
