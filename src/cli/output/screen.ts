/**
 * The terminal lines under the reporter: a progress bar or a status line
 * drawn in place is erased before any other line is written, and the bar
 * drawn again after it. Every text is masked on its way out.
 */
import type {OutputStream} from './reporter.js'
import {clearLine, progressLine} from './progress.js'

/** Writes lines to stdout and stderr around a bar or status line drawn in place. */
export interface Screen {
  /** A line on stdout. */
  out(line: string): void
  /** A line on stderr. */
  err(line: string): void
  /** Text on stdout with no line end, after erasing what is drawn (a JSON document ends its own line). */
  raw(text: string): void
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
  mask: (text: string) => string
): Screen {
  const {stdout, stderr} = streams
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
    stdout.write(clearLine + progressLine(done, total, mask(label), stdout.columns ?? 80))
    barShown = true
  }
  const redraw = () => {
    if (lastBar && interactive) drawBar(...lastBar)
  }
  const lineTo = (stream: OutputStream) => (line: string) => {
    clear()
    stream.write(mask(line) + '\n')
    redraw()
  }
  return {
    out: lineTo(stdout),
    err: lineTo(stderr),
    raw(text) {
      clear()
      stdout.write(mask(text))
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
      stdout.write(mask(line))
      statusShown = true
    }
  }
}
