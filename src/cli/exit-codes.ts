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
  changesPending: 4
} as const
