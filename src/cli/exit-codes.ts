/** Exit codes of every command (documented in the README). */
export const exitCodes = {
  /** Success. */
  ok: 0,
  /** Runtime failure: API, network, I/O. */
  failure: 1,
  /** Invalid input or usage; nothing was written. */
  invalid: 2,
  /** Unresolved conflicts. */
  conflict: 3,
  /** `plan --exit-code`: changes are pending. */
  changesPending: 4,
  /** Stopped by SIGINT (Ctrl-C): what completed is recorded; run again to finish. */
  interrupted: 130,
  /** Stopped by SIGTERM (a CI job cancelled): what completed is recorded; run again to finish. */
  terminated: 143
} as const
