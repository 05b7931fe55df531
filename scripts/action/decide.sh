#!/usr/bin/env bash
# The GitHub Action's choice of command: the `command` input as given, or for
# `auto`, plan on pull requests (and merge queues) and push on the default
# branch; plan anywhere else, so a feature branch never writes the knowledge base.
set -euo pipefail

command="${INPUT_COMMAND:-auto}"
if [ "$command" = auto ]; then
  case "${GITHUB_EVENT_NAME:-}" in
    pull_request | pull_request_target | merge_group) command=plan ;;
    *)
      if [ -n "${DEFAULT_BRANCH:-}" ] && [ "${GITHUB_REF:-}" = "refs/heads/${DEFAULT_BRANCH}" ]; then
        command=push
      else
        command=plan
      fi
      ;;
  esac
fi

case "$command" in
  plan | push | status | pull | check-links | pull-request) ;;
  *)
    echo "::error title=kbsync action::The input command is \"$command\"; use auto, plan, push, status, pull, check-links or pull-request"
    exit 2
    ;;
esac

echo "command=$command" >>"$GITHUB_OUTPUT"
echo "kbsync: $command (event ${GITHUB_EVENT_NAME:-unknown}, ref ${GITHUB_REF:-unknown})"
