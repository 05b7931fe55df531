/**
 * MDX components take attributes as JavaScript expressions
 * (`<Note title={`Thunks and "containers"`}>`), which no HTML reader
 * accepts: CommonMark then sees no tag at all and the whole line reaches
 * the reader as text. On a line that starts with a component or element
 * tag, an expression that is a plain string literal becomes the quoted
 * attribute it means; any other expression (and a `{...spread}`) is
 * left out, since only the site's JavaScript could evaluate it. Lines
 * keep their number; code is left alone.
 */
import {FenceTracker, splitPrefix, type SiteSource} from './lines.js'

const tagLine = /^[ \t]*<[A-Za-z][\w.:-]*[\s/>]/
const hasExpression = /[\s=]\{/

/** Rewrites the attribute expressions of the tag lines of `site` (see the module comment). */
export function rewriteJsxAttributes(site: SiteSource): void {
  const {lines} = site
  const fences = new FenceTracker()
  for (let index = 0; index < lines.length; index++) {
    const [prefix, rest] = splitPrefix(lines[index]!)
    if (fences.isCode(rest) || !tagLine.test(rest) || !hasExpression.test(rest)) continue
    lines[index] = prefix + rewriteTag(rest)
  }
}

/** `line` with each `{…}` inside its tags made a quoted attribute value or left out. */
function rewriteTag(line: string): string {
  let out = ''
  let inTag = false
  for (let at = 0; at < line.length;) {
    const char = line[at]!
    if (!inTag) {
      if (char === '<' && /[A-Za-z/]/.test(line[at + 1] ?? '')) inTag = true
      out += char
      at++
      continue
    }
    if (char === '>') inTag = false
    if (char === '"' || char === "'") {
      const end = line.indexOf(char, at + 1)
      if (end === -1) return line
      out += line.slice(at, end + 1)
      at = end + 1
      continue
    }
    if (char !== '{') {
      out += char
      at++
      continue
    }
    const end = expressionEnd(line, at)
    if (end === -1) return line
    const literal = stringLiteral(line.slice(at + 1, end).trim())
    if (literal === undefined) {
      // `name={expr}` or `{...spread}`: the name goes with its value.
      out = out.replace(/\s*[\w:-]+=$/, '').trimEnd()
    } else {
      out += `"${literal.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"`
    }
    at = end + 1
  }
  return out
}

/** The index of the `}` closing the expression opened at `start`, or -1 (strings and template literals skipped). */
function expressionEnd(line: string, start: number): number {
  let depth = 0
  for (let at = start; at < line.length; at++) {
    const char = line[at]!
    if (char === '"' || char === "'" || char === '`') {
      at = closingQuote(line, at)
      if (at === -1) return -1
    } else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return at
  }
  return -1
}

/** The index of the quote closing the string opened at `start`, or -1. */
function closingQuote(line: string, start: number): number {
  const quote = line[start]
  for (let at = start + 1; at < line.length; at++) {
    if (line[at] === '\\') at++
    else if (line[at] === quote) return at
  }
  return -1
}

/** The text of a JavaScript string literal with no interpolation, or undefined for any other expression. */
function stringLiteral(expression: string): string | undefined {
  const quote = expression[0]
  if ((quote !== '"' && quote !== "'" && quote !== '`') || closingQuote(expression, 0) !== expression.length - 1)
    return undefined
  const body = expression.slice(1, -1)
  if (quote === '`' && body.includes('${')) return undefined
  return body.replace(/\\(.)/g, '$1')
}
