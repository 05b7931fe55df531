/**
 * A one-line progress bar, redrawn in place. Only for a terminal: in CI
 * logs each redraw would be a line of noise.
 */

/** The text of the bar: `[#####.....] 5/10 label`, cut to `columns`. */
export function progressLine(done: number, total: number, label: string, columns = 80, width = 20): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0
  const filled = Math.round(ratio * width)
  const head = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`
  const line = label ? `${head} ${label}` : head
  return line.length > columns - 1 ? line.slice(0, Math.max(0, columns - 2)) + '…' : line
}

/** Erases the current terminal line and returns the cursor to its start. */
export const clearLine = '\r\x1b[K'
