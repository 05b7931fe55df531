/**
 * Bodies converted while the other requests are on the network, on the
 * conversion pool (`src/workers/`: other cores). The text of a pulled file
 * depends on the body and on two questions only the plan answers for sure:
 * where each linked document will be, and where each file's local copy
 * will be. As a record arrives its body is parsed once, where the pool
 * runs it, for the facts the pull keeps (`BodyFacts`), and converted with
 * the likely answers (every item where the layout puts it, every file
 * beside its document), which travel as tables; the questions asked are
 * noted with the answers given. The documents step asks them again of the
 * plan: the same answers give the same text, and it takes this one; any
 * other answer, and it converts anew. So the result is the same either way;
 * only the time and the thread move. At most `window` conversions are held
 * (made or under way, not yet taken), weighing at most `budget` bytes: the
 * records read past either are only parsed for their facts and converted
 * when their document is written, so what a large pull holds of its
 * conversions is bounded, not the knowledge base (each costs one parse
 * more: the parse is about a quarter of a conversion's CPU in a profile of
 * `--only=pull`).
 */
import {type Layout} from '../shared/document-layout.js'
import {type RemoteSnapshot} from '../shared/remote.js'
import type {BodyPlace, PulledBody} from '../shared/document-body.js'
import type {DiagramSource} from '../../diagrams/index.js'
import {itemPageUrl, type ItemRef, type PlatformUrls} from '../shared/platform-links.js'
import type {TaskRunner} from '../../workers/index.js'
import type {Asked, BodyFacts, PullBodyRequest, PullBodyResult} from './body-task.js'
import {withTree} from './body-place.js'

/** The questions a conversion asks of the pull (`LocalizeContext`): where a document is, a file's copy, a diagram's source. */
export interface Answers {
  documentOf(kind: ItemRef['kind'], id: string): string | undefined
  assetOf(url: string): string | undefined
  diagramOf(url: string): DiagramSource | undefined
}

/** One conversion made early: the file it was made for, the answers it was given, and its outcome. */
interface Early {
  file: string
  asked: Asked
  pulled: PulledBody
  /** Its weight (`weightOf`), given back when it is taken. */
  bytes: number
}

/**
 * Conversions held at most by default. A count alone bounded the wrong thing: with 4,096, a pull of 9,000 generated
 * articles parsed 5,200 records twice (a 30,000 one 26,000), 7% of its CPU and a step in its growth from 3,000; held
 * without a bound, they added 17 MB to its 310 MB peak. So the bound is mostly `earlyBudget`.
 */
export const earlyWindow = 65_536

/**
 * What the early conversions held may weigh by default, in bytes (`weightOf`): room for 30,000 conversions of
 * generated 2-4 KB articles, whose text is the record's body itself (`shareText`), whatever the knowledge base.
 */
export const earlyBudget = 64 * 1024 * 1024

/** What a held conversion weighs besides its texts: about what one whose texts are the record's body costs. */
const heldOverheadBytes = 2048

/** How many early conversions a speculation holds (now, and the most at once so far), and what those made weigh. */
export interface HeldConversions {
  now: number
  most: number
  bytes: number
}

/** Conversions made early, by id. */
export interface Speculation {
  /** Parses the body of `id` (its record read) on the pool, and converts it early when it can; resolves with its facts. */
  convert(id: string): Promise<BodyFacts>
  /** The early conversion of `id` for `file`, when `answers` gives every answer it was made with; else undefined. */
  take(id: string, file: string, answers: Answers): PulledBody | undefined
  /** Lets the pool's workers forget this pull's tables (the reads are over). */
  release(): void
  /** The conversions held (made or under way, not taken), now and at most. */
  readonly held: Readonly<HeldConversions>
}

/** What the speculation of one pull works with. */
export interface SpeculationSetting {
  remote: RemoteSnapshot
  layout: Layout
  urls: PlatformUrls
  /** The diagram sources the folder keeps, by file URL (`diagramSources`). */
  diagrams: ReadonlyMap<string, DiagramSource>
  /** The conversion pool. */
  pool: TaskRunner
  /** False to convert nothing early (a dry run): bodies are only parsed for their facts. */
  early: boolean
  /** Conversions held at most (default `earlyWindow`). */
  window?: number
  /** Bytes the conversions held may weigh (default `earlyBudget`). */
  budget?: number
  /** Where the body of a document will likely sit in its file (`likelyPlace`); absent: the proof's findings are not handed over. */
  placeOf?: (id: string) => BodyPlace | undefined
}

let runs = 0

/** Early conversions for a pull of `setting.remote` whose documents `setting.layout` places. */
export function createSpeculation(setting: SpeculationSetting): Speculation {
  const {remote, layout, urls, pool} = setting
  const made = new Map<string, Early>()
  const window = setting.window ?? earlyWindow
  const budget = setting.budget ?? earlyBudget
  const held: HeldConversions = {now: 0, most: 0, bytes: 0}
  const hold = () => {
    held.now++
    held.most = Math.max(held.most, held.now)
  }
  const keys = {documents: `pull-${++runs}-documents`, diagrams: `pull-${runs}-diagrams`}
  let shared = false
  const share = () => {
    if (shared) return
    shared = true
    pool.share(keys.documents, likelyDocuments(remote, layout))
    pool.share(keys.diagrams, setting.diagrams)
  }
  return {
    async convert(id) {
      const item = remote.items[id]
      const detail = remote.details[id]!
      const at = layout.paths.get(id)
      const file = layout.files.get(id)
      const request: PullBodyRequest = {body: detail.body, title: item?.title ?? detail.title}
      const room = held.now < window && held.bytes < budget
      if (setting.early && item && at !== undefined && file && room && !made.has(id)) {
        share()
        hold()
        const pageUrl = itemPageUrl({kind: item.type, id}, urls)
        const place = setting.placeOf?.(id)
        request.early = {
          file,
          urls,
          pageUrl,
          ...keys,
          assets: {id, path: at, files: detail.files},
          ...(place ? {place: withTree(place)} : {})
        }
      }
      let result: PullBodyResult
      try {
        result = (await pool.run('pullBody', request)) as PullBodyResult
      } catch (error) {
        if (request.early) held.now--
        throw error
      }
      if (result.early && request.early) {
        const early = shareText(result.early, detail.body)
        const bytes = weightOf(early.pulled, detail.body)
        held.bytes += bytes
        made.set(id, {file: request.early.file, ...early, bytes})
      } else if (request.early) held.now--
      return result.facts
    },
    take(id, file, answers) {
      const early = made.get(id)
      if (early) {
        held.now--
        held.bytes -= early.bytes
      }
      made.delete(id)
      if (!early || early.file !== file) return undefined
      const {documents, assets, diagrams} = early.asked
      // Asked again in the order the conversion asked them: a document-of that notes missing targets notes the same ones.
      if (documents.some((query) => answers.documentOf(query.kind, query.id) !== query.answer)) return undefined
      if (assets.some((query) => answers.assetOf(query.url) !== query.answer)) return undefined
      if (diagrams.some((query) => !sameSource(answers.diagramOf(query.url), query.answer))) return undefined
      return early.pulled
    },
    release() {
      if (!shared) return
      shared = false
      pool.share(keys.documents, undefined)
      pool.share(keys.diagrams, undefined)
    },
    held
  }
}

/** The file each document will likely be, by `kind:id`: where the layout puts it (the root topic: `_index.md`). */
function likelyDocuments(remote: RemoteSnapshot, layout: Layout): Map<string, string> {
  const table = new Map<string, string>()
  for (const [id, file] of layout.files) {
    const item = remote.items[id]
    if (item && file !== undefined && file !== null) table.set(`${item.type}:${id}`, file)
  }
  if (remote.rootTopicId !== null) table.set(`topic:${remote.rootTopicId}`, '_index.md')
  return table
}

/** Whether two answers about a diagram's source are the same. */
function sameSource(a: DiagramSource | undefined, b: DiagramSource | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.kind === b.kind && a.source === b.source)
}

/** What the early conversion `pulled` of `body` holds besides the record's body, in bytes (two a character). */
function weightOf(pulled: PulledBody, body: string): number {
  const canonical = pulled.canonical === body ? 0 : pulled.canonical.length
  const text = pulled.text === body || pulled.text === pulled.canonical ? 0 : pulled.text.length
  return heldOverheadBytes + 2 * (canonical + text)
}

/**
 * The early conversion `early` holding no second copy of `body`: a body
 * stored canonically (as kbsync pushes it) is its own canonical text, and
 * often its file's text; each is then the record's string, held once.
 */
function shareText<T extends {pulled: PulledBody}>(early: T, body: string): T {
  const {pulled} = early
  if (pulled.canonical === body) pulled.canonical = body
  if (pulled.text === body) pulled.text = body
  else if (pulled.text === pulled.canonical) pulled.text = pulled.canonical
  return early
}
