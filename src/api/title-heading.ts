/**
 * The `# <title>` line the platform puts before a body it returns. The
 * platform writes the title as Markdown, so characters such as `_` come back
 * escaped (`# snake\_case`): the line is compared with the title both as
 * written and with its backslash escapes undone.
 */

/** CommonMark backslash escapes: a backslash before ASCII punctuation. */
const escaped = /\\([!-/:-@[-`{-~])/g

/** Whether `line` is the heading `# <title>` of `title`. */
export function isTitleHeading(line: string, title: string): boolean {
  if (!line.startsWith('# ')) return false
  const text = line.slice(2).trim()
  const wanted = title.trim()
  return text === wanted || text.replace(escaped, '$1') === wanted
}

/**
 * `body` (line ends made LF) without a leading `# <title>` line and the blank
 * lines after it; unchanged when it does not start with that heading.
 */
export function withoutTitleHeading(body: string, title: string): string {
  const text = body.replace(/\r\n?/g, '\n')
  const end = text.indexOf('\n')
  const line = end === -1 ? text : text.slice(0, end)
  if (!isTitleHeading(line, title)) return text
  return end === -1 ? '' : text.slice(end + 1).replace(/^\n+/, '')
}
