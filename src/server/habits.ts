/**
 * The real platform's habits the local server can imitate, all opt-in: a
 * server looser than the platform hides client bugs, a server stricter by
 * default would fail every test that is not about them. `platformHabits:
 * true` turns on the body habits; the others take a number and are set one
 * by one.
 */

/** The platform's habits, each off unless set. */
export interface PlatformHabits {
  /** Store bodies re-serialised as the platform writes them (soft breaks hard, `\_`, `| --- |`): see `dialect/platform-form.ts`. */
  storeBodies?: boolean
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
  const given: PlatformHabits = option === true ? {storeBodies: true} : option || {}
  return {
    storeBodies: given.storeBodies ?? false,
    dropOver: given.dropOver ?? 0
  }
}
