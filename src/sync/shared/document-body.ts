/**
 * A remote body to the text of a pulled file. The authoring form (GitHub
 * alerts, relative links and paths) is used only when it renders back to the
 * same body; otherwise the body stays in dialect form (links and paths still
 * local), which renders back by construction. Every candidate is checked the
 * way push reads a file (`toKbTree`, references restored, `toKbText`).
 */
import {VFile} from 'vfile'
import type {Root} from 'mdast'
import type {VFileMessage} from 'vfile-message'
import {isUnconvertible, kbTreeToGfm, parseKb, stringifyKb} from '../../dialect/index.js'
import {withoutNotice} from './notice.js'
import {bodyKeyOf, dropPositions, parseBodyFacts, toKbText, type BodyFacts as ScanFacts} from '../../local/index.js'
import {localizedTree, restoreTree, type LocalizeContext, type Origin} from './localize.js'
import {provenBody, provenTree} from './proven-body.js'
import {normalizeRemoteLinks, type RewrittenUrl} from './platform-links.js'
import {howReadsBack} from './proof.js'
import {predictRender, type RenderPrediction} from './render-prediction.js'

/** How a pulled body was written. */
export type PulledForm = 'gfm' | 'dialect' | 'lossy'

/** A body as a pulled file holds it. */
export interface PulledBody {
  /** The Markdown under the front matter (ends with a newline, or empty). */
  text: string
  form: PulledForm
  /** The canonical dialect text push will render from `text` (when the form is not lossy: the remote body's canonical form, links normalised). */
  canonical: string
  /** Relative link URLs of the remote body written as the absolute URLs they reach on the platform (`platform-links.ts`); absent when none. */
  rewritten?: RewrittenUrl[]
  /**
   * What the proof's parse of `text` found, as the scan will key it (`bodyKeyOf` of the file and the body as the
   * scan cuts it, `linesBefore` blank lines first): the check after the pull takes it instead of parsing (`handOverFacts`).
   * Absent when the place was not given or the body was not parsed. With `tree` (the place's `withTree`), the
   * parse's tree too (positions dropped, references not marked): the check renders it instead of parsing.
   * With `render`, what the check's render of it will be when its references resolve as the proof restored
   * them (`render-prediction.ts`): the check then neither parses nor renders it.
   */
  parsed?: {key: string; facts: ScanFacts; tree?: Root; render?: RenderPrediction}
}

/** Where a pulled body sits in its file: the lines before it (front matter, blank line), which the scan blanks. */
export interface BodyPlace {
  linesBefore: number
  /** Whether the proof's tree is handed over with its facts (a copy: within `reserveHandedTree`'s bound). */
  withTree?: boolean
}

/**
 * Converts the remote body `body` (title heading already stripped) of the
 * document titled `title` for the file `context.file`. Never throws: a body
 * kbsync cannot convert (nesting past the limit, as `bodyTrouble` says)
 * or that fails to convert is given as it is stored, in the lossy form (a pull
 * skips such items; a conflict copy shows the platform's text).
 */
export function pullBody(stored: string, title: string, context: LocalizeContext, place?: BodyPlace): PulledBody {
  // kbsync's notice is the platform's, never the file's: taken off the top before anything else.
  const body = withoutNotice(stored)
  return pullParsedBody(body, () => parseForPull(body), title, context, place)
}

/** The dialect tree of `body`, and whether the parse could not keep it as it is (nesting past the limit, a parser failure). */
export function parseForPull(body: string): {tree: Root; trouble?: VFileMessage} {
  const file = new VFile({value: body})
  const tree = parseKb(file)
  const trouble = file.messages.find(isUnconvertible)
  return trouble ? {tree, trouble} : {tree}
}

/**
 * `pullBody` for the body `body` (notice already taken off), given its
 * parse (`parseForPull(body)`, called once when the body is not blank: the
 * pull parses each record once and passes that tree, taken over). With
 * `place`, the proof parses the body where the file will hold it, and hands
 * what it found to the check (`PulledBody.parsed`).
 */
export function pullParsedBody(
  body: string,
  parse: () => {tree: Root; trouble?: VFileMessage},
  title: string,
  context: LocalizeContext,
  place?: BodyPlace
): PulledBody {
  if (body.trim() === '') return {text: '', form: 'dialect', canonical: ''}
  const asStored: PulledBody = {text: ensureNewline(body), form: 'lossy', canonical: body}
  try {
    const {tree, trouble} = parse()
    return trouble ? asStored : convertBody(tree, title, context, place)
  } catch {
    return asStored
  }
}

/** The pulled body of the parsed body `parsed` (taken over: changed in place). */
function convertBody(parsed: Root, title: string, context: LocalizeContext, place?: BodyPlace): PulledBody {
  // The links as the platform means them (articles in URL form, addresses relative to the article's page) are the body to keep.
  const links = context.links
  const urls = links
    ? normalizeRemoteLinks(parsed, {...links, isPulled: (ref) => context.documentOf(ref.kind, ref.id) !== undefined})
    : []
  const rewritten = urls.length > 0 ? {rewritten: urls} : {}
  // Nothing below reads a position (the proof compares trees without them).
  dropPositions(parsed)
  const canonical = stringifyKb(parsed)
  // `parsed` stays as it is: the proof compares against it.
  const {tree: local, origins} = localizedTree(parsed, context)
  // Read back through push's own seam (the file's body, as the scan cuts it, to a dialect tree), and compared
  // (`proof.ts`); what the parse found is kept for the check after the pull.
  const before = '\n'.repeat(place?.linesBefore ?? 0)
  const proven = provenPulled(local, origins, canonical, title, context.file, place)
  if (proven) return {...proven, canonical, ...rewritten}
  let found: {text: string; facts: ScanFacts; tree?: Root} | undefined
  const readBack = (text: string): Root => {
    const {tree, facts} = parseBodyFacts(before + ensureNewline(text), context.file)
    found = {text, facts, ...(place?.withTree ? {tree: handedTree(tree)} : {})}
    restoreTree(tree, origins)
    return tree
  }
  // `exact`: the proof's tree is the body's own (not only the same text), so it serialises to `canonical`.
  const parsedOf = (text: string, exact = false) => {
    if (!place || found?.text !== text) return {}
    const render = exact ? predictRender(found.facts.refs, origins, canonical) : undefined
    const key = bodyKeyOf(context.file, before + ensureNewline(text))
    return {parsed: {key, ...withoutText(found), ...(render ? {render} : {})}}
  }
  // Neither writer changes `local`: both candidates are made from it as it is.
  const candidates: Array<[PulledForm, () => string]> = [
    ['gfm', () => kbTreeToGfm(local).markdown],
    ['dialect', () => stringifyKb(local)]
  ]
  let last = ''
  for (const [form, make] of candidates) {
    let text: string
    try {
      text = protectTitleHeading(make(), title)
    } catch {
      continue
    }
    last = text
    let how: ReturnType<typeof howReadsBack>
    try {
      how = howReadsBack(readBack(text), parsed, canonical)
    } catch {
      continue
    }
    if (how) return {text: ensureNewline(text), form, canonical, ...rewritten, ...parsedOf(text, how === 'tree')}
  }
  const lossy = toKbText(readBack(last))
  return {text: ensureNewline(last), form: 'lossy', canonical: lossy, ...rewritten, ...parsedOf(last)}
}

/**
 * The pulled body of the localized tree `local` when it is in the proven
 * class (`proven-body.ts`): its text, and what the read-back would have
 * found (and with `place.withTree` its tree), without reading it back;
 * undefined when the read-back must prove it.
 */
function provenPulled(
  local: Root,
  origins: Map<string, Origin>,
  canonical: string,
  title: string,
  file: string,
  place: BodyPlace | undefined
): Pick<PulledBody, 'text' | 'form' | 'parsed'> | undefined {
  const proven = provenBody(local, place?.linesBefore ?? 0)
  // A heading the scanner would take as the title is rewritten: its lines move, so the read-back places them.
  if (!proven || protectTitleHeading(proven.text, title) !== proven.text) return undefined
  const text = ensureNewline(proven.text)
  if (!place) return {text, form: 'gfm'}
  const facts: ScanFacts = {messages: [], refs: proven.refs, urls: proven.urls}
  const render = predictRender(proven.refs, origins, canonical)
  const key = bodyKeyOf(file, '\n'.repeat(place.linesBefore) + text)
  const tree = place.withTree ? {tree: provenTree(local)} : {}
  return {text, form: 'gfm', parsed: {key, facts, ...tree, ...(render ? {render} : {})}}
}

/** A copy of the proof's parse, as the scan keeps a tree (no positions), before the proof restores its references. */
function handedTree(tree: Root): Root {
  // Nothing the proof does with `tree` reads a position (its facts carry their lines): dropped before the copy, which then copies less.
  dropPositions(tree)
  return structuredClone(tree)
}

function withoutText({text: _, ...rest}: {text: string; facts: ScanFacts; tree?: Root}) {
  return rest
}

function ensureNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : text + '\n'
}

const atxTitle = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/

/**
 * A body whose first line is a `# ` heading equal to the title would lose it
 * on push (the scanner takes such a heading as the title): write that one
 * heading in setext form, which parses to the same level-1 heading.
 */
export function protectTitleHeading(text: string, title: string): string {
  const lines = text.split('\n')
  const first = lines.findIndex((line) => line.trim() !== '')
  if (first === -1) return text
  const match = atxTitle.exec(lines[first]!)
  if (!match || match[1]!.trim() !== title.trim()) return text
  lines.splice(first, 1, match[1]!.trim(), '='.repeat(Math.max(3, match[1]!.trim().length)))
  return lines.join('\n')
}
