/**
 * Text from the repository or the platform on its way to a terminal or a CI
 * log. A title, a file name, a platform's error message is data: printed, it
 * must neither act on the terminal nor on the CI runner that reads the log.
 *
 * - A terminal acts on control characters: ESC starts sequences that move
 *   the cursor, erase or repaint lines, retitle the window, or hide text;
 *   CR returns to the start of the line (what follows overwrites it), BEL
 *   rings, C1 controls (U+0080–U+009F) are the 8-bit forms of the sequences,
 *   and the bidirectional overrides (U+202A–U+202E, U+2066–U+2069, LRM, RLM,
 *   ALM) reorder what is shown ("Trojan source"). Each is shown escaped
 *   (`\n`, `\r`, `\x1b`, `\u202e`), never written raw; only the colour
 *   sequences kbsync writes itself may pass (`keepSgr`).
 * - The GitHub Actions runner reads every line of a step's output: a line
 *   that starts with `::` after leading whitespace is a workflow command
 *   (`ActionCommand.TryParseV2`: annotations, `::add-mask::`,
 *   `::stop-commands::`), and so is a line holding `##[` anywhere
 *   (`ActionCommand.TryParse`, the legacy syntax). A line of kbsync's that
 *   carries repository text gets a backslash before such a start
 *   (`\::error …`, `##\[`), so the runner sees text; kbsync's own
 *   annotations are written through another door, their fields escaped as
 *   the toolkit escapes them.
 */

/** The invisible characters that reorder or hide text (bidi controls, line/paragraph separators, BOM). */
const invisible = '\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff'
const controlsAndNewlines = new RegExp(`[\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f${invisible}]`, 'g')
const controls = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${invisible}]`, 'g')

/** How one character is shown: `\n`, `\r`, `\t`, `\x1b`, `\u202e`. */
function escaped(char: string): string {
  if (char === '\n') return '\\n'
  if (char === '\r') return '\\r'
  const code = char.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** Options of `escapeControls`. */
export interface EscapeControlsOptions {
  /** Keep LF (a text of several lines kbsync joined itself); CR and every other control is escaped all the same. */
  keepNewlines?: boolean
  /** The exact ESC sequences to let through (kbsync's own colours, when colour is on); every other ESC is escaped. */
  keepSgr?: readonly string[]
}

/**
 * `text` with every control character (C0 but TAB, DEL, C1) and every
 * invisible reordering character shown escaped (`\n`, `\x1b`, `\u202e`),
 * so printing it cannot act on a terminal.
 */
export function escapeControls(text: string, options: EscapeControlsOptions = {}): string {
  const pattern = options.keepNewlines ? controls : controlsAndNewlines
  pattern.lastIndex = 0
  if (!pattern.test(text)) return text
  const keep = options.keepSgr ?? []
  return text.replace(pattern, (char, offset: number) => {
    // kbsync's own colour sequence: ESC followed by one of the sequences it writes.
    if (char === '\x1b' && keep.some((sgr) => text.startsWith(sgr, offset))) return char
    return escaped(char)
  })
}

/** A repository or platform value shown on one line: newlines too are escaped (`a\nb`). */
export function oneLine(text: string): string {
  return escapeControls(text)
}

// .NET's `TrimStart()` (what the runner trims) takes every Unicode White_Space character, U+180E included on old runtimes.
const leadingSpace = '[\\s\\u0085\\u180e]*'
const commandStart = new RegExp(`^(${leadingSpace})::`)

/**
 * One output line made unable to start a GitHub Actions workflow command: a
 * backslash before a leading `::` (after whitespace) and inside every `##[`.
 * The line is a single line (no LF, no CR: `escapeControls` first).
 */
export function neutraliseCommand(line: string): string {
  return line.replace(commandStart, '$1\\::').replace(/##\[/g, '##\\[')
}

/** Options of `terminalText`. */
export interface TerminalTextOptions {
  /** The colour sequences kbsync itself writes, when colour is on for the stream. */
  keepSgr?: readonly string[]
  /** Under GitHub Actions: neutralise workflow commands in every line. */
  github?: boolean
}

/**
 * Text of one or more lines kbsync prints (the lines it joined keep their
 * LF): every control character escaped but kbsync's colours, and under
 * GitHub Actions every line unable to start a workflow command.
 */
export function terminalText(text: string, options: TerminalTextOptions = {}): string {
  const safe = escapeControls(text, {keepNewlines: true, ...(options.keepSgr ? {keepSgr: options.keepSgr} : {})})
  return options.github ? safe.split('\n').map(neutraliseCommand).join('\n') : safe
}

const jsonRaw = new RegExp(`[\\u007f-\\u009f${invisible}]`, 'g')

/**
 * A JSON document (from `JSON.stringify`) made safe for a terminal and a CI
 * log without changing its value: the characters JSON leaves raw (DEL, C1,
 * bidi controls, U+2028/9) become `\uXXXX` escapes, and `##[` becomes
 * `##\u005b` (the runner's legacy command start). Both can only occur inside
 * strings, where the escapes mean the same characters.
 */
export function jsonText(json: string): string {
  return json
    .replace(jsonRaw, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/##\[/g, '##\\u005b')
}
