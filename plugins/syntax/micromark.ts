/**
 * micromark syntax extension of the dialect: tokenizes the dialect's tags
 * with the tolerant grammar of `tag.ts`, before micromark's own HTML
 * constructs (whose unquoted attribute values end at `/`, which breaks every
 * unquoted URL), and keeps CommonMark HTML blocks from swallowing the
 * Markdown written tight inside a dialect block.
 */
import {htmlFlow} from 'micromark-core-commonmark'
import {markdownLineEnding, markdownSpace} from 'micromark-util-character'
import {codes} from 'micromark-util-symbol'
import type {Code, Construct, Effects, Extension, State, TokenizeContext} from 'micromark-util-types'
import {createScanner, resetScanner, step} from './scanner.js'
import {interpret, type KbTag} from './tag.js'
import {isBlockTag, isDialectTag} from './vocabulary.js'

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    kbTag: 'kbTag'
    kbTagFlow: 'kbTagFlow'
  }
}

/** The character of a micromark code inside a tag (a tab, a virtual space, or itself). */
function toChar(code: number): string {
  if (code === codes.horizontalTab) return '\t'
  if (code === codes.virtualSpace) return ' '
  // micromark's codes are UTF-16 code units (it reads with `charCodeAt`), and
  // `fromCharCode` of one is much cheaper than `fromCodePoint`.
  return String.fromCharCode(code)
}

/** The UTF-16 code unit of `toChar(code)`. */
function toUnit(code: number): number {
  if (code === codes.horizontalTab) return codes.ht
  if (code === codes.virtualSpace) return codes.space
  return code
}

/** A tag read before: its text (as `toChar` writes it) and what it is. */
interface Known {
  raw: string
  selfClosing: boolean
  tag: KbTag
}

/**
 * The last two distinct tags read, most recent first. A line of thousands
 * of tags repeats one or two (`<details><summary>`): while the tag being
 * read is the start of one of these, its text is neither built (a string per
 * character) nor looked up; once it is all of it, it is that tag (the same
 * text scans the same).
 */
let recentA: Known | undefined
let recentB: Known | undefined

/**
 * Consume one tag starting at `<`, then call `done(tag)` to pick the next
 * state (or `nok` when the characters do not form a tag). The returned
 * state reads one tag each time it is entered, so a line of tags reads them
 * all with one scanner instead of allocating one per tag.
 */
function tagStates(effects: Effects, nok: State, done: (tag: KbTag) => State): State {
  const scanner = createScanner()
  let raw = ''
  // The recent tags whose text starts with the tag's so far, taken when the
  // tag starts: another tokenizer may read a tag meanwhile.
  let a: Known | undefined
  let b: Known | undefined
  return start
  function start(code: Code): State | undefined {
    resetScanner(scanner)
    raw = ''
    a = recentA
    b = recentB
    return inside(code)
  }
  function inside(code: Code): State | undefined {
    const phase = step(scanner, code)
    if (phase === 'fail') return nok(code)
    effects.consume(code)
    take(code as number, scanner.length - 1)
    if (phase === 'done') return done(finish())
    return inside
  }
  /** Take the character at `index` of the tag: matched against the recent tags while one matches, else added to `raw`. */
  function take(code: number, index: number): void {
    const alive = a ?? b
    if (alive === undefined) {
      raw += toChar(code)
      return
    }
    const unit = toUnit(code)
    if (a && a.raw.charCodeAt(index) !== unit) a = undefined
    if (b && b.raw.charCodeAt(index) !== unit) b = undefined
    if (!a && !b) raw = alive.raw.slice(0, index) + toChar(code)
  }
  /** The tag just read: a recent one when its text is all of that one's, else interpreted (and remembered). */
  function finish(): KbTag {
    const {length, selfClosing} = scanner
    if (a && a.raw.length === length && a.selfClosing === selfClosing) return a.tag
    if (b && b.raw.length === length && b.selfClosing === selfClosing) return b.tag
    const alive = a ?? b
    if (alive) raw = alive.raw.slice(0, length)
    const tag = interpret(raw, selfClosing)
    recentB = recentA
    recentA = {raw, selfClosing, tag}
    return tag
  }
}

/** A dialect tag inside phrasing. */
const kbTagText: Construct = {name: 'kbTagText', tokenize: tokenizeTagText, add: 'before'}

function tokenizeTagText(effects: Effects, ok: State, nok: State): State {
  return function start(code) {
    effects.enter('kbTag')
    return tagStates(effects, nok, (tag) => {
      if (!isDialectTag(tag)) return nok
      effects.exit('kbTag')
      return ok
    })(code)
  }
}

/**
 * A line of dialect tags only, the first of a block construct
 * (`<div data-node=hintBlock ...>`, `</details>`, `<video ...></video>`):
 * it may interrupt a paragraph, so blocks written tight parse. A line that
 * starts with an inline tag (`<u> <div …>`) stays phrasing: it is what
 * serialising writes when a line ending before a block tag in a paragraph
 * turns into a space, and it must read back as that paragraph.
 */
const kbTagFlow: Construct = {name: 'kbTagFlow', tokenize: tokenizeTagFlow, add: 'before'}

function tokenizeTagFlow(effects: Effects, ok: State, nok: State): State {
  let block = false
  let first = true
  const tagState = tagStates(effects, nok, afterTag)
  return function start(code) {
    effects.enter('kbTagFlow')
    return between(code)
  }
  function between(code: Code): State | undefined {
    if (markdownSpace(code)) {
      effects.consume(code)
      return between
    }
    if (code === codes.lessThan) return tagState(code)
    if (code === codes.eof || markdownLineEnding(code)) {
      if (!block) return nok(code)
      effects.exit('kbTagFlow')
      return ok(code)
    }
    return nok(code)
  }
  function afterTag(tag: KbTag): State {
    if (!isDialectTag(tag)) return nok
    if (first && !isBlockTag(tag)) return nok
    first = false
    // A closing tag is the dialect's wherever it is. Were that to depend on
    // what came before (an opening tag in a paragraph is written back on a
    // line of its own), a body would read differently once written back.
    if (isBlockTag(tag)) block = true
    return between
  }
}

/** Check: does a dialect tag start here? */
const dialectTagAhead: Construct = {tokenize: tokenizeAhead, partial: true}

function tokenizeAhead(effects: Effects, ok: State, nok: State): State {
  return function start(code) {
    effects.enter('kbTag')
    return tagStates(effects, nok, (tag) => {
      effects.exit('kbTag')
      return isDialectTag(tag) ? ok : nok
    })(code)
  }
}

/** CommonMark HTML (flow) for everything that does not start with a dialect tag. */
const guardedHtmlFlow: Construct = {
  name: 'kbHtmlFlow',
  tokenize: tokenizeGuardedHtmlFlow,
  resolveTo: htmlFlow.resolveTo,
  concrete: true,
  add: 'before'
}

function tokenizeGuardedHtmlFlow(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  const html = htmlFlow.tokenize.call(this, effects, ok, nok)
  return effects.check(dialectTagAhead, nok, html)
}

/** The dialect's micromark extension (use with `micromark`/`fromMarkdown`). */
export function kbSyntax(): Extension {
  return {
    disable: {null: ['htmlFlow']},
    flow: {[codes.lessThan]: [kbTagFlow, guardedHtmlFlow]},
    text: {[codes.lessThan]: kbTagText}
  }
}
