/**
 * MyST (Sphinx's Markdown) written as what its site shows, line for line:
 * - admonition directives, fenced by backticks (```` ```{note} ````) or
 *   colons (`:::{warning}`), become the Docusaurus-style containers
 *   `fenced-containers.ts` makes hint blocks of (`{admonition} Title` a
 *   note with its title, `{dropdown} Title` an expanding block); their
 *   `:option: value` lines go (they configure the block);
 * - `{code-block} python` (`{code}`, `{sourcecode}`, `{code-cell}`) is a
 *   code block in that language, its option lines gone;
 * - roles: `` {ref}`Title <label>` `` is its title, `` {doc}`path` ``,
 *   `` {term}`word` `` and the like their text, `` {math}`a^2` `` a
 *   formula; the target of a cross-reference is lost, counted in one
 *   warning per page;
 * - `(label)=` target lines and `% comment` lines go; a display formula's
 *   label (`$$ (eq-label)`) goes.
 * Only in a page with MyST's own marks (a directive or a role): a line
 * starting `%` is text elsewhere.
 */
import {trimBlanksEnd} from '../../../trust/linear-text.js'
import {CodeLines} from './code-lines.js'
import {splitPrefix, type SiteSource} from './lines.js'

/** Admonition directives, by MyST name: the container name written instead, and the title given when none is. */
const admonitions: Readonly<Record<string, readonly [name: string, title?: string]>> = {
  note: ['note'],
  tip: ['tip'],
  hint: ['hint'],
  important: ['important'],
  warning: ['warning'],
  caution: ['caution'],
  attention: ['attention'],
  danger: ['danger'],
  error: ['error'],
  seealso: ['seealso', 'See also'],
  admonition: ['note'],
  dropdown: ['details']
}

const codeDirectives = new Set(['code-block', 'code', 'sourcecode', 'code-cell'])

// Its argument is trimmed apart: a lazy `(.*?)` before `[ \t\r]*$` backtracks quadratically on a long run of blanks.
const directive = /^(`{3,}|:{3,})\{([A-Za-z][\w-]*)\}[ \t]*(.*)$/
const optionLine = /^[ \t]*:[\w-]+:(?:[ \t].*)?$/
const target = /^\([\w.:-]+\)=[ \t\r]*$/
const comment = /^%(?:[ \t].*)?\r?$/
const labelledDisplay = /^(\$\$)[ \t]*\([\w.:-]+\)[ \t\r]*$/
// Not after a backtick: `{name}` in inline code followed by another code span is no role.
const role = /(?<![`\w{])\{([a-z][\w:-]*)\}`([^`\n]+)`/g

/** Whether `markdown` may hold MyST's marks: a directive fence or a role. */
export function mayHoldMyst(markdown: string): boolean {
  return /^[ \t>]*(?:`{3,}|:{3,})\{[A-Za-z][\w-]*\}|(?<![`\w{])\{[a-z][\w:-]*\}`/m.test(markdown)
}

/** Rewrites the MyST syntax of `site` (see the module comment). */
export function rewriteMyst(site: SiteSource): void {
  const {lines} = site
  const code = new CodeLines()
  let references = 0
  let firstReference = 0
  for (let index = 0; index < lines.length; index++) {
    const [prefix, rest] = splitPrefix(lines[index]!)
    const open = directive.exec(rest)
    // A directive fenced by backticks is a code block to the tracker: rewritten before it reads the line.
    if (open && !code.inFence) {
      index = rewriteDirective(lines, index, prefix, open)
      code.isCode(lines[index]!)
      continue
    }
    if (code.isCode(lines[index]!)) continue
    if (target.test(rest) || comment.test(rest)) lines[index] = prefix
    else if (labelledDisplay.test(rest)) lines[index] = prefix + '$$'
    else if (rest.includes('}`')) {
      const counted = {references: 0}
      lines[index] = prefix + rewriteRoles(rest, counted)
      if (counted.references > 0 && references === 0) firstReference = site.origin[index]!
      references += counted.references
    }
  }
  if (references > 0)
    site.messages.push({
      line: firstReference,
      column: 1,
      ruleId: 'kb-myst-reference',
      reason: `${references} MyST cross-reference role${references === 1 ? '' : 's'} ({ref}, {doc}, {numref}...) written as ${references === 1 ? 'its' : 'their'} text: the platform does not resolve Sphinx labels. Write a Markdown link to the article or heading instead.`
    })
}

/**
 * Rewrites the directive opened at `index`; answers the line its opening
 * fence ends on. A code block's fence moves down past its option lines (the
 * code does not start with blank lines); a container's option lines are
 * blanked inside it; other directives stay as written.
 */
function rewriteDirective(lines: string[], index: number, prefix: string, open: RegExpExecArray): number {
  const fence = open[1]!
  const name = open[2]!.toLowerCase()
  const argument = trimBlanksEnd(open[3]!.replace(/\r$/, ''))
  const backticks = fence.startsWith('`')
  const admonition = admonitions[name]
  if (backticks && codeDirectives.has(name)) {
    const last = lastOption(lines, index)
    for (let at = index; at < last; at++) lines[at] = prefix
    lines[last] = prefix + fence + argument
    return last
  }
  if (!admonition) return index
  if (backticks) closeWithColons(lines, index, fence.length)
  const title = argument || admonition[1]
  lines[index] = prefix + ':'.repeat(fence.length) + admonition[0] + (title ? ' ' + title : '')
  const last = lastOption(lines, index)
  for (let at = index + 1; at <= last; at++) lines[at] = ''
  return index
}

/** Rewrites the backtick fence closing the directive opened at `index` as colons (CommonMark's rule: the first fence as long). */
function closeWithColons(lines: string[], index: number, length: number): void {
  const closing = new RegExp(`^\`{${length},}[ \\t\\r]*$`)
  for (let at = index + 1; at < lines.length; at++) {
    const [prefix, rest] = splitPrefix(lines[at]!)
    if (!closing.test(rest)) continue
    lines[at] = prefix + ':'.repeat(length)
    return
  }
}

/** The last of the `:option: value` lines after `index` (`index` itself when none follows). */
function lastOption(lines: string[], index: number): number {
  let last = index
  while (last + 1 < lines.length && optionLine.test(lines[last + 1]!)) last++
  return last
}

/** `rest` with its roles written as their text (see the module comment); `counted` learns the cross-references. */
function rewriteRoles(rest: string, counted: {references: number}): string {
  return rest.replace(role, (whole: string, name: string, content: string) => {
    if (name === 'math') return `$$${content}$$`
    const titled = /^(.*\S)\s*<([^<>]+)>$/.exec(content)
    const text = titled ? titled[1]! : content
    if (['ref', 'doc', 'numref', 'eq', 'any', 'download'].includes(name)) counted.references++
    else if (!['term', 'abbr', 'sub', 'sup', 'guilabel', 'menuselection', 'index', 'dfn'].includes(name))
      return '`' + content + '`'
    return text.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`)
  })
}
