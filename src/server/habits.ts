/**
 * The real platform's habits the local server can imitate, all opt-in: a
 * server looser than the platform hides client bugs, a server stricter by
 * default would fail every test that is not about them. `platformHabits:
 * true` turns on the habits about bodies; the others take numbers and are
 * set one by one.
 */

/** The platform's habits, each off unless set. */
export interface PlatformHabits {
  /** Store bodies re-serialised as the platform writes them (soft breaks hard, `\_`, `| --- |`): see `dialect/platform-form.ts`. */
  storeBodies?: boolean
  /**
   * Answer 500 `server_error` (and store nothing) to an article or topic
   * write whose body has a line starting with three backticks inside a fenced
   * code block (read by `nestedFenceLine` of `plugins/code-fence.ts`; a line
   * the dialect guards with a zero-width space passes).
   */
  nestedFenceFails?: boolean
  /**
   * The persons (one per organisation) the login of `POST /auth` belongs to.
   * With more than one, a login without `person_id` answers 500
   * `server_error`, as the platform does; with any, a `person_id` not among
   * them answers 401 `invalid_credentials`. Absent: `person_id` is ignored.
   */
  loginPersonIds?: number[]
  /**
   * Drop connections (socket destroyed before the request is handled, no
   * answer) while more than this many requests arrived within the last
   * second, dropped ones included: the platform's `fetch failed` bursts.
   * 0 or absent: never.
   */
  dropOver?: number
}

/** The habits in force, every field set. */
export type ResolvedHabits = Required<PlatformHabits>

/** Expands the `platformHabits` option: `true` is every habit that needs no number. */
export function resolveHabits(option: boolean | PlatformHabits | undefined): ResolvedHabits {
  const given: PlatformHabits = option === true ? {storeBodies: true, nestedFenceFails: true} : option || {}
  return {
    storeBodies: given.storeBodies ?? false,
    nestedFenceFails: given.nestedFenceFails ?? false,
    loginPersonIds: given.loginPersonIds ?? [],
    dropOver: given.dropOver ?? 0
  }
}

/** One phrase per habit in force, for the startup message of `kbsync serve`. */
export function describeHabits(habits: ResolvedHabits): string[] {
  return [
    habits.storeBodies ? 'bodies stored as the platform writes them' : '',
    habits.nestedFenceFails ? 'a body with ``` inside a fenced block answers 500' : '',
    habits.loginPersonIds.length > 0
      ? `the login belongs to person ${habits.loginPersonIds.join(', ')}${habits.loginPersonIds.length > 1 ? ' (POST /auth needs person_id)' : ''}`
      : '',
    habits.dropOver > 0 ? `connections dropped while more than ${habits.dropOver} requests arrive within a second` : ''
  ].filter(Boolean)
}
