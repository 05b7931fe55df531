/**
 * ANSI colours, on only for a terminal: never with `NO_COLOR`, forced with
 * `FORCE_COLOR` (except `FORCE_COLOR=0`), off for `TERM=dumb`.
 */

/** A stream as far as colour detection cares. */
export interface TtyLike {
  isTTY?: boolean
}

/** Whether to colour output written to `stream`. */
export function colourEnabled(stream: TtyLike, env: NodeJS.ProcessEnv): boolean {
  // https://no-color.org: present and not empty disables colour, whatever else is set.
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  const force = env.FORCE_COLOR
  if (force !== undefined) return !/^(0|false)$/i.test(force)
  return stream.isTTY === true && env.TERM !== 'dumb'
}

/** The styles the reporter uses. */
export interface Palette {
  red(text: string): string
  yellow(text: string): string
  green(text: string): string
  cyan(text: string): string
  dim(text: string): string
  bold(text: string): string
}

/** The SGR codes the palette writes: the only escape sequences a printed line may keep (see `escapeControls`). */
const codes = [31, 32, 33, 36, 39, 1, 2, 22]

/** The ESC sequences of the palette, as written (`\x1b[31m`). */
export const paletteSequences: readonly string[] = codes.map((code) => `\x1b[${code}m`)

const wrap = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`
const plain = (text: string) => text

/** A palette that colours, or one that returns text unchanged. */
export function palette(enabled: boolean): Palette {
  if (!enabled) return {red: plain, yellow: plain, green: plain, cyan: plain, dim: plain, bold: plain}
  return {
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22)
  }
}

/** Removes ANSI escapes (for width computations and tests). */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
}
