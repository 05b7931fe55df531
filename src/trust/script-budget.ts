/**
 * The work budget of reading a script a repository holds (`js-literal.ts`):
 * `@babel/parser` and the literal reader descend by recursion, so a text
 * nested thousands of brackets deep would overflow the stack, and a huge
 * one costs time for no configuration's sake. Checked by a linear scan
 * before the parse.
 */

/** The largest script read, in UTF-16 units (an `astro.config.ts` of a large site is some 40 KB). */
export const maxScriptLength = 1_000_000

/** How deep brackets may nest in a script read (real configuration nests some ten levels). */
export const maxScriptNesting = 200

/** Why `text` is refused before parsing, if it is: too long, or nested too deep (a linear count of brackets). */
export function overScriptBudget(text: string): {line: number; message: string} | undefined {
  if (text.length > maxScriptLength)
    return {line: 1, message: `it is ${text.length} characters long, more than ${maxScriptLength}`}
  let depth = 0
  let line = 1
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (char === 0x0a) line++
    else if (char === 0x28 || char === 0x5b || char === 0x7b) {
      // Brackets inside strings count too: an over-count only refuses sooner.
      if (++depth > maxScriptNesting)
        return {line, message: `brackets nest deeper than ${maxScriptNesting} levels at line ${line}`}
    } else if ((char === 0x29 || char === 0x5d || char === 0x7d) && depth > 0) depth--
  }
  return undefined
}
