/**
 * The terminal lines under the reporter: a progress bar or a status line
 * drawn in place is erased before any other line is written, and the bar
 * drawn again after it. Every text is masked on its way out, and made
 * harmless (`src/trust/output-text.ts`): its control characters shown
 * escaped but kbsync's own colours, and under GitHub Actions no line able to
 * start a workflow command but kbsync's own annotations (`command`).
 */
import {escapeControls, jsonText, oneLine, terminalText} from '../../trust/index.js'
import type {OutputStream} from './reporter.js'
import {paletteSequences} from './colours.js'
import {clearLine, progressLine} from './progress.js'

/** How the screen makes text safe to print. */
export interface ScreenRules {
  /** Masks secrets (a last line of defence). */
  mask(text: string): string
  /** Under GitHub Actions (`GITHUB_ACTIONS=true`): lines that would start a workflow command are neutralised. */
  github: boolean
  /** Whether each stream is coloured: only then do kbsync's colour sequences pass. */
  colour: {stdout: boolean; stderr: boolean}
}

/** Writes lines to stdout and stderr around a bar or status line drawn in place. */
export interface Screen {
  /** A line on stdout. */
  out(line: string): void
  /** A line on stderr. */
  err(line: string): void
  /** A JSON document on stdout, after erasing what is drawn (it ends its own line; its value is kept exactly). */
  raw(text: string): void
  /** One of kbsync's own workflow commands (its fields escaped by `annotations.ts`), written as is on one line. */
  command(line: string, stream: 'stdout' | 'stderr'): void
  /** Draws the progress bar (on a terminal only; the caller decides). */
  bar(done: number, total: number, label: string): void
  /** Gives the drawn bar a new label; nothing when no bar is drawn. */
  relabel(label: string): void
  /** Clears the bar and forgets it. */
  endBar(): void
  /** A status line redrawn in place. */
  status(line: string): void
}

/** The screen of one command run; `interactive`: stdout is a terminal (bars are redrawn after a line). */
export function createScreen(
  streams: {stdout: OutputStream; stderr: OutputStream},
  interactive: boolean,
  rules: ScreenRules
): Screen {
  const {stdout, stderr} = streams
  const {mask, github} = rules
  const shown = (text: string, coloured: boolean) =>
    terminalText(mask(text), coloured ? {keepSgr: paletteSequences, github} : {github})
  let barShown = false
  let statusShown = false
  let lastBar: [number, number, string] | undefined

  // A line written while a bar or status line is drawn must first erase it.
  const clear = () => {
    if (barShown || statusShown) stdout.write(clearLine)
    barShown = false
    statusShown = false
  }
  const drawBar = (done: number, total: number, label: string) => {
    stdout.write(clearLine + progressLine(done, total, oneLine(mask(label)), stdout.columns ?? 80))
    barShown = true
  }
  const redraw = () => {
    if (lastBar && interactive) drawBar(...lastBar)
  }
  const lineTo = (stream: OutputStream, coloured: boolean) => (line: string) => {
    clear()
    stream.write(shown(line, coloured) + '\n')
    redraw()
  }
  return {
    out: lineTo(stdout, rules.colour.stdout),
    err: lineTo(stderr, rules.colour.stderr),
    raw(text) {
      clear()
      stdout.write(jsonText(mask(text)))
    },
    command(line, stream) {
      clear()
      // Built escaped; a stray control character would still be shown, never written raw.
      ;(stream === 'stdout' ? stdout : stderr).write(escapeControls(mask(line)) + '\n')
      redraw()
    },
    bar(done, total, label) {
      lastBar = [done, total, label]
      drawBar(done, total, label)
    },
    relabel(label) {
      if (!lastBar) return
      lastBar = [lastBar[0], lastBar[1], label]
      redraw()
    },
    endBar() {
      if (barShown) stdout.write(clearLine)
      barShown = false
      lastBar = undefined
    },
    status(line) {
      clear()
      stdout.write(shown(line, rules.colour.stdout))
      statusShown = true
    }
  }
}
