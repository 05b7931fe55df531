/**
 * Bodies converted while the other requests are on the network. The text
 * of a pulled file depends on the body and on two questions only the plan
 * answers for sure: where each linked document will be, and where each
 * file's local copy will be. As a record arrives its body is converted with
 * the likely answers (every item where the layout puts it, every file
 * beside its document) and the questions asked are noted with the answers
 * given. The documents step asks them again of the plan: the same answers
 * give the same text, and it takes this one; any other answer, and it
 * converts anew. So the result is the same either way; only the time moves.
 */
import type {Root} from 'mdast'
import {pullBody, type PulledBody} from '../shared/document-body.js'
import {type Layout} from '../shared/document-layout.js'
import {bodyTrouble, type RemoteSnapshot} from '../shared/remote.js'
import {planAssets} from './assets.js'
import type {DiagramSource} from '../../diagrams/index.js'
import {itemPageUrl, linkForms, type ItemRef, type PlatformUrls} from '../shared/platform-links.js'

/** The questions a conversion asks of the pull (`LocalizeContext`): where a document is, a file's copy, a diagram's source. */
export interface Answers {
  documentOf(kind: ItemRef['kind'], id: string): string | undefined
  assetOf(url: string): string | undefined
  diagramOf(url: string): DiagramSource | undefined
}

/** One conversion made early: the file it was made for, the answers it was given, and its outcome. */
interface Early {
  file: string
  documents: Array<{kind: ItemRef['kind']; id: string; answer: string | undefined}>
  assets: Array<{url: string; answer: string | undefined}>
  diagrams: Array<{url: string; answer: DiagramSource | undefined}>
  pulled: PulledBody
}

/** Conversions made early, by id. */
export interface Speculation {
  /** Converts the body of `id` (its record read, `tree` its parse) with the likely answers. */
  convert(id: string, tree: Root): void
  /** The early conversion of `id` for `file`, when `answers` gives every answer it was made with; else undefined. */
  take(id: string, file: string, answers: Answers): PulledBody | undefined
}

/** Converts nothing early (a dry run). */
export const noSpeculation: Speculation = {convert: () => undefined, take: () => undefined}

/** Early conversions for a pull of `remote` whose documents `layout` places; `diagramOf` answers as the documents step will. */
export function createSpeculation(
  remote: RemoteSnapshot,
  layout: Layout,
  urls: PlatformUrls,
  diagramOf: (url: string) => DiagramSource | undefined
): Speculation {
  const forms = linkForms(urls)
  const made = new Map<string, Early>()
  const likelyDocument = (kind: ItemRef['kind'], id: string): string | undefined => {
    if (kind === 'topic' && id === remote.rootTopicId && id !== null) return '_index.md'
    const file = layout.files.get(id)
    return file === undefined || file === null || remote.items[id]?.type !== kind ? undefined : file
  }
  return {
    convert(id, tree) {
      const item = remote.items[id]
      const detail = remote.details[id]
      const at = layout.paths.get(id)
      const file = layout.files.get(id)
      if (!item || !detail || at === undefined || !file || bodyTrouble(detail)) return
      const copies = planAssets([{id, path: at, file, tree, detail}])
      const early: Early = {
        file,
        documents: [],
        assets: [],
        diagrams: [],
        pulled: {text: '', form: 'dialect', canonical: ''}
      }
      const documentOf = (kind: ItemRef['kind'], target: string) => {
        const answer = likelyDocument(kind, target)
        early.documents.push({kind, id: target, answer})
        return answer
      }
      const assetOf = (url: string) => {
        const answer = copies.get(url)?.path
        early.assets.push({url, answer})
        return answer
      }
      const diagramAsked = (url: string) => {
        const answer = diagramOf(url)
        early.diagrams.push({url, answer})
        return answer
      }
      const links = {forms, pageUrl: itemPageUrl({kind: item.type, id}, urls)}
      early.pulled = pullBody(detail.body, item.title, {file, documentOf, assetOf, diagramOf: diagramAsked, links})
      made.set(id, early)
    },
    take(id, file, answers) {
      const early = made.get(id)
      made.delete(id)
      if (!early || early.file !== file) return undefined
      // Asked again in the order the conversion asked them: a document-of that notes missing targets notes the same ones.
      if (early.documents.some((query) => answers.documentOf(query.kind, query.id) !== query.answer)) return undefined
      if (early.assets.some((query) => answers.assetOf(query.url) !== query.answer)) return undefined
      if (early.diagrams.some((query) => !sameSource(answers.diagramOf(query.url), query.answer))) return undefined
      return early.pulled
    }
  }
}

/** Whether two answers about a diagram's source are the same. */
function sameSource(a: DiagramSource | undefined, b: DiagramSource | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.kind === b.kind && a.source === b.source)
}
