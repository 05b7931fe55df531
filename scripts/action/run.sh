#!/usr/bin/env bash
# The GitHub Action's run of kbsync: inputs arrive as INPUT_* variables (never
# interpolated into the script, so no input can inject shell), secrets become
# kbsync's own KBSYNC_* variables (never arguments, so never in a process list
# or log), and kbsync's exit code is the step's, and the `exit-code` output.
set -uo pipefail

bin="${GITHUB_ACTION_PATH:?}/dist/src/cli/bin.js"
args=("${KBSYNC_COMMAND:?}")
# pull-request: a pull into a branch and one pull request for it (scheduled runs).
if [ "$KBSYNC_COMMAND" = pull-request ]; then args=(pull); fi
if [ -n "${INPUT_FOLDER:-}" ]; then args+=("$INPUT_FOLDER"); fi
if [ "$KBSYNC_COMMAND" = pull-request ]; then
  args+=(--pull-request)
  if [ -n "${INPUT_BRANCH:-}" ]; then args+=(--branch "$INPUT_BRANCH"); fi
fi

# Only what is given: an empty input must not hide the config file's value.
given() { [ -n "${!1:-}" ]; }
if given INPUT_API_URL; then export KBSYNC_API_URL="$INPUT_API_URL"; fi
if given INPUT_FILES_URL; then export KBSYNC_FILES_URL="$INPUT_FILES_URL"; fi
if given INPUT_ROOT_TOPIC; then export KBSYNC_ROOT_TOPIC="$INPUT_ROOT_TOPIC"; fi
for secret in TOKEN LOGIN SECURITY_KEY; do
  input="INPUT_$secret"
  if given "$input"; then
    # Masked in the log even when the workflow passed it as plain text, not as a secret.
    echo "::add-mask::${!input}"
    export "KBSYNC_$secret=${!input}"
  fi
  unset "$input"
done
# The token that opens the pull request: GitHub's own variable, which kbsync reads (never an argument).
if [ "$KBSYNC_COMMAND" = pull-request ] && given INPUT_GITHUB_TOKEN; then
  echo "::add-mask::$INPUT_GITHUB_TOKEN"
  export GITHUB_TOKEN="$INPUT_GITHUB_TOKEN"
fi
unset INPUT_GITHUB_TOKEN

# Extra arguments split on white space as a shell would, with nothing evaluated.
read -r -a extra <<<"${INPUT_ARGS:-}"

node "$bin" "${args[@]}" "${extra[@]}"
code=$?
echo "exit-code=$code" >>"$GITHUB_OUTPUT"
exit "$code"
