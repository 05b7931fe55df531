/**
 * The glob patterns of Hugo's cascade targets (`path: '{/blog,/blog/**}'`,
 * `kind: '{section,page}'`), as Hugo reads them: `**` any text, `*` and `?`
 * any text but the separator, `{a,b}` either, `[abc]` / `[!abc]` a
 * character of (or not of) a set; compared without case. Built once per
 * pattern as a regular expression without back-references (linear matching).
 */

/** Whether `value` matches the glob `pattern`; `/` separates the segments `*` stays within when `separated`. */
export function matchesGlob(pattern: string, value: string, separated: boolean): boolean {
  return globExpression(pattern, separated).test(value)
}

const expressions = new Map<string, RegExp>()

function globExpression(pattern: string, separated: boolean): RegExp {
  const key = `${separated ? '/' : ''}${pattern}`
  let expression = expressions.get(key)
  if (!expression) {
    expression = new RegExp(`^(?:${globSource(pattern, separated)})$`, 'is')
    if (expressions.size < 256) expressions.set(key, expression)
  }
  return expression
}

function globSource(pattern: string, separated: boolean): string {
  const any = separated ? '[^/]' : '.'
  let source = ''
  let depth = 0
  for (let at = 0; at < pattern.length; at++) {
    const character = pattern[at]!
    if (character === '*') {
      const double = pattern[at + 1] === '*'
      if (double) at++
      source += double ? '.*' : `${any}*`
    } else if (character === '?') source += any
    else if (character === '{') [source, depth] = [source + '(?:', depth + 1]
    else if (character === '}' && depth > 0) [source, depth] = [source + ')', depth - 1]
    else if (character === ',' && depth > 0) source += '|'
    else if (character === '[') {
      const end = pattern.indexOf(']', at + 2)
      if (end === -1) source += '\\['
      else {
        const set = pattern.slice(at + 1, end)
        const negated = set.startsWith('!')
        const members = (negated ? set.slice(1) : set).replace(/[\\\]^]/g, (c) => `\\${c}`)
        source += `[${negated ? '^' : ''}${members}]`
        at = end
      }
    } else if (character === '\\' && at + 1 < pattern.length) source += escaped(pattern[++at]!)
    else source += escaped(character)
  }
  // An unclosed brace is a literal one to Hugo too: close the groups so the expression stays valid.
  return source + ')'.repeat(depth)
}

function escaped(character: string): string {
  return /[.*+?^${}()|[\]\\/-]/.test(character) ? `\\${character}` : character
}
