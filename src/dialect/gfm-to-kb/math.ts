/**
 * Math in the authoring form: display formulas (`$$` lines around TeX, a
 * paragraph that is only `$$ ... $$`, GitHub's ```` ```math ```` fence) and
 * inline formulas (`$$ ... $$` in text, and `$...$` by a strict rule). The
 * dialect has no math: a display formula becomes a `math` code block and an
 * inline one inline code marked as a formula, which the sync engine
 * publishes as the images of their renderings (`src/diagrams/`) and
 * `kbsync convert` leaves as code.
 *
 * The single-dollar rule (Pandoc's `tex_math_dollars`, made stricter for
 * prose about prices and shells): the opening `$` is not preceded by a
 * letter, a digit or `$`, and is followed by a character that is not
 * whitespace; the closing `$` is preceded by none of whitespace, `/`, `-`,
 * `:`, `,`, `;`, `=` or `(`, and followed by none of a letter, a digit, or
 * `$ _ ( { [ @ # * % &`; both on one line, and `\$` inside is TeX's dollar.
 * So "costs $5 and $10", "$5-$10", `$PATH:$HOME`, `$0/$@` and
 * `$(pwd)/$(ls)` stay text.
 */
import type {Code, InlineCode, Nodes, Parents, Root} from 'mdast'
import {mathFromMarkdown, mathToMarkdown, type InlineMath} from 'mdast-util-math'
import type {Handle, Options as ToMarkdownOptions} from 'mdast-util-to-markdown'
import type {Extension as TreeExtension} from 'mdast-util-from-markdown'
import {math} from 'micromark-extension-math'
import {markdownLineEnding, markdownLineEndingOrSpace, unicodeWhitespace} from 'micromark-util-character'
import type {Code as CharCode, Construct, Extension, State, TokenizeContext, Tokenizer} from 'micromark-util-types'
import type {OptionalConstruct} from '../syntax.js'
import {walk} from './walk.js'

/** The `data` key marking an inline code node of the dialect tree as an inline formula. */
export const inlineMathData = 'kbsyncMath'

const dollar = 36
const backslash = 92

/** Letters and digits (of any script): a `$` next to one is a price or a variable, not a formula's edge. */
const wordCharacter = /[\p{L}\p{N}]/u

function isWord(code: CharCode): boolean {
  return code !== null && code >= 0 && wordCharacter.test(String.fromCodePoint(code))
}

/** What may not follow a closing `$` (besides letters and digits): what follows a shell's `$` or a price. */
const notAfterClose = new Set(Array.from('$_({[@#*%&', (character) => character.codePointAt(0)!))

/** What may not precede a closing `$` (besides whitespace): separators of prices and paths (`$5-$10`, `$0/$1`). */
const notBeforeClose = new Set(Array.from('/-:,;=(', (character) => character.codePointAt(0)!))

const tokenizeSingleDollar: Tokenizer = function (this: TokenizeContext, effects, ok, nok) {
  // Whether the character before a `$` lets it close the formula.
  let mayClose = false
  const start: State = (code) => {
    effects.enter('mathText')
    effects.enter('mathTextSequence')
    effects.consume(code)
    effects.exit('mathTextSequence')
    return opened
  }
  const opened: State = (code) => {
    if (code === null || code === dollar || markdownLineEndingOrSpace(code) || unicodeWhitespace(code)) return nok(code)
    effects.enter('mathTextData')
    return inside(code)
  }
  const inside: State = (code) => {
    if (code === null || markdownLineEnding(code)) return nok(code)
    if (code === dollar && mayClose) {
      effects.exit('mathTextData')
      effects.enter('mathTextSequence')
      effects.consume(code)
      effects.exit('mathTextSequence')
      return closed
    }
    mayClose = !markdownLineEndingOrSpace(code) && !unicodeWhitespace(code) && !notBeforeClose.has(code!)
    effects.consume(code)
    return code === backslash ? escaped : inside
  }
  // TeX's `\$` (and `\\`): the next character belongs to the formula.
  const escaped: State = (code) => {
    if (code === null || markdownLineEnding(code)) return nok(code)
    mayClose = true
    effects.consume(code)
    return inside
  }
  const closed: State = (code) => {
    if (isWord(code) || (code !== null && notAfterClose.has(code))) return nok(code)
    effects.exit('mathText')
    return ok(code)
  }
  return start
}

/** `$...$` by the strict rule (see the module's comment). */
const singleDollarMath: Construct = {
  name: 'mathTextSingle',
  tokenize: tokenizeSingleDollar,
  previous: (code) => code !== dollar && !isWord(code)
}

/**
 * Whether a `$$` line opens a display formula: only the dollars on it (no
 * text after them, which micromark-extension-math would take as the
 * fence's meta). A line of prose that starts with `$$` ("$$ is the shell's
 * process id") must not swallow the rest of its container as a formula.
 */
const tokenizeBareOpening: Tokenizer = (effects, ok, nok) => {
  let dollars = 0
  const sequence: State = (code) => {
    if (code === dollar) {
      dollars++
      effects.consume(code)
      return sequence
    }
    return dollars < 2 ? nok(code) : after(code)
  }
  const after: State = (code) => {
    if (code === null || markdownLineEnding(code)) {
      effects.exit('mathFlowFenceSequence')
      return ok(code)
    }
    if (code === 32 || code === 9) {
      effects.consume(code)
      return after
    }
    return nok(code)
  }
  return (code) => {
    // Only looked at (a check): the events are dropped, the block's own tokenizer runs from the start.
    effects.enter('mathFlowFenceSequence')
    return sequence(code)
  }
}

const bareOpening: Construct = {tokenize: tokenizeBareOpening, partial: true}

/** micromark-extension-math's `$$` block, opened only by a bare `$$` line (`tokenizeBareOpening`). */
function guardedFlow(flow: Construct): Construct {
  return {
    ...flow,
    tokenize(effects, ok, nok) {
      const start = flow.tokenize.call(this, effects, ok, nok)
      return effects.check(bareOpening, start, nok)
    }
  }
}

/** The micromark extensions of math: `$$` blocks and text (micromark-extension-math), and the strict `$...$`. */
export function mathSyntax(): Extension[] {
  const base = math({singleDollarTextMath: false})
  const flow = base.flow![dollar] as Construct
  return [{...base, flow: {[dollar]: guardedFlow(flow)}}, {text: {[dollar]: singleDollarMath}}]
}

/** The from-markdown extension of math (mdast-util-math: `math` and `inlineMath` nodes). */
export function mathTree(): TreeExtension {
  return mathFromMarkdown()
}

/** The math constructs, left out of the parse of a source that cannot hold them (`syntaxVariants`). */
export const mathConstructs: OptionalConstruct[] = [
  {name: 'mathFlow', mayOccur: (source) => source.includes('$$')},
  {name: 'mathText', mayOccur: (source) => source.includes('$$')},
  {name: 'mathTextSingle', mayOccur: (source) => source.includes('$')}
]

/** A display formula, as the dialect tree holds it: a `math` code block. */
function formulaBlock(value: string, node: Nodes): Code {
  return {type: 'code', lang: 'math', meta: null, value, ...(node.position ? {position: node.position} : {})}
}

/** Whether the inline formula `node` is written with `$$` (in `source`, the parsed text). */
function isDoubleDollar(node: Nodes, source: string): boolean {
  const offset = node.position?.start.offset
  return offset !== undefined && source.startsWith('$$', offset)
}

/**
 * Turns the math nodes of `tree` (parsed from `source`) into the dialect
 * tree's forms: `math` into a `math` code block, a paragraph that is only a
 * `$$ ... $$` formula into one too (written on one line, it is a display
 * formula), any other `inlineMath` into inline code marked as a formula.
 */
export function convertMath(tree: Root, source: string): void {
  walk(tree, (node, index, parent: Parents) => {
    if (node.type === 'math') {
      parent.children.splice(index, 1, formulaBlock(node.value, node) as never)
      return index + 1
    }
    if (node.type === 'paragraph' && node.children.length === 1) {
      const only = node.children[0]!
      if (only.type === 'inlineMath' && isDoubleDollar(only, source)) {
        parent.children.splice(index, 1, formulaBlock(only.value.trim(), node) as never)
        return index + 1
      }
    }
    if (node.type === 'inlineMath') {
      const code: InlineCode = {
        type: 'inlineCode',
        value: node.value,
        data: {[inlineMathData]: true} as InlineCode['data'],
        ...(node.position ? {position: node.position} : {})
      }
      parent.children.splice(index, 1, code as never)
    }
    return undefined
  })
}

/** Whether `value` between single dollars reads back as this formula (`singleDollarMath`), with `before` and `after` around it. */
function singleDollarSafe(value: string, before: string, after: string): boolean {
  if (value === '' || /^\s|[\s/:,;=(-]$|[\r\n]|\\$/.test(value) || /(^|[^\\])\$/.test(value)) return false
  const code = (text: string, at: number): CharCode => (text === '' ? null : text.codePointAt(at)!)
  const previous = code(before, before.length - 1)
  const next = code(after, 0)
  return previous !== dollar && !isWord(previous) && !isWord(next) && (next === null || !notAfterClose.has(next))
}

/**
 * The to-markdown extension of math for GFM output (pull): display formulas
 * as `$$` blocks (mdast-util-math), inline ones as `$...$` where the strict
 * rule reads them back, else `$$...$$`; a `$$` in text is escaped.
 */
export function mathToGfm(): ToMarkdownOptions {
  const base = mathToMarkdown({singleDollarTextMath: false})
  const double = base.handlers!.inlineMath!
  const write: Handle = (node: InlineMath, parent, state, info) =>
    singleDollarSafe(node.value, info.before, info.after) ? `$${node.value}$` : double(node, parent, state, info)
  const inlineMath = Object.assign(write, {peek: () => '$'})
  return {...base, handlers: {...base.handlers, inlineMath}}
}
