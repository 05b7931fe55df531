/**
 * Where a Liquid output whose value is unknown starts a link's address
 * (`[text]({{ site.x }}/y)`): the link, so that its text alone stays when the
 * output goes (the site would show it as a link to its value). Plain text in,
 * positions out; the link's text may open on a line above (`linkFromAbove`).
 */

/**
 * The inline link whose address starts at `at` (`[text]({{ site.x }}/y)`),
 * found from `from` on: where it opens, its text, and where it ends (past
 * its `)`); undefined when the output starts no link's address.
 */
export function linkAround(
  line: string,
  at: number,
  after: number,
  from: number
): {open: number; text: string; close: number} | undefined {
  if (line.slice(at - 2, at) !== '](') return undefined
  let depth = 0
  let open = -1
  for (let index = at - 3; index >= from; index--) {
    const char = line[index]
    if (char === ']') depth++
    else if (char === '[' && depth-- === 0) {
      open = index
      break
    }
  }
  const close = line.indexOf(')', after)
  if (open === -1 || close === -1) return undefined
  return {open, text: line.slice(open + 1, at - 2), close: close + 1}
}

/** The most lines above a link's `](` its text is looked for in: bounded work on a paragraph of many stray `]`. */
const lookBack = 20

/**
 * A link whose text opened on an earlier line of the paragraph (`[docs` over
 * `folder]({{ site.x }}/y)`): its `[` is taken out of the line written above,
 * and this line keeps the text up to the `]`. After a stray `]` (no `[` open
 * above) the address alone goes. Undefined when the output starts no address.
 */
export function linkFromAbove(
  line: string,
  at: number,
  after: number,
  from: number,
  written: string[]
): {open: number; text: string; close: number} | undefined {
  const close = line.indexOf(')', after)
  if (line.slice(at - 2, at) !== '](' || close === -1 || line.slice(from, at - 2).includes('[')) return undefined
  let depth = (line.slice(from, at - 2).match(/\]/g) ?? []).length
  // Back through the paragraph (to its first blank line, at most `lookBack` lines), the last `[` left open.
  const stop = Math.max(0, written.length - lookBack)
  for (let row = written.length - 1; row >= stop && written[row]!.trim() !== ''; row--) {
    const text = written[row]!
    for (let index = text.length - 1; index >= 0; index--) {
      if (text[index] === ']') depth++
      else if (text[index] === '[' && depth-- === 0) {
        written[row] = text.slice(0, index) + text.slice(index + 1)
        return {open: from, text: line.slice(from, at - 2), close: close + 1}
      }
    }
  }
  // No link at all (a stray `]`): the address is no text the site meant to show, and goes; the `]` stays.
  return {open: from, text: line.slice(from, at - 1), close: close + 1}
}
