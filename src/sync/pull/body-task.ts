/**
 * A pulled record's body, converted where the pool runs it (a worker
 * thread, or in-process): parsed once, the facts the pull keeps of it
 * (file URLs, diagram blocks held as code, why it cannot be converted), and
 * when asked, its early conversion (`speculation.ts`) with the likely
 * answers, which arrive as tables (plain data) and are noted as asked, in
 * order, for the documents step to ask again.
 */
import type {DiagramSource} from '../../diagrams/index.js'
import {codeDiagrams} from '../../diagrams/index.js'
import {parseForPull, pullParsedBody, type BodyPlace, type PulledBody} from '../shared/document-body.js'
import {fileUrls} from '../shared/localize.js'
import {withoutNotice} from '../shared/notice.js'
import {linkForms, type ItemRef, type LinkForms, type PlatformUrls} from '../shared/platform-links.js'
import type {BodyTrouble, RemoteDetail} from '../shared/remote.js'
import {sharedValue} from '../../workers/index.js'
import {planAssets} from './assets.js'

/** What the pull keeps of a record's body instead of its tree. */
export interface BodyFacts {
  /** Every image, attachment and draw.io URL of the body, in document order (`fileUrls`). */
  fileUrls: string[]
  /** The diagram blocks the body holds as code (`codeDiagrams`). */
  codeDiagrams: DiagramSource[]
  /** Why the body cannot be converted without loss (`bodyTrouble`). */
  trouble?: BodyTrouble
}

/** The questions a conversion asked (`LocalizeContext`), in order, with the answers it was given. */
export interface Asked {
  documents: Array<{kind: ItemRef['kind']; id: string; answer: string | undefined}>
  assets: Array<{url: string; answer: string | undefined}>
  diagrams: Array<{url: string; answer: DiagramSource | undefined}>
}

/** How to convert a body early: for which file, with which likely answers (shared tables by key, `sharedValue`). */
export interface EarlyRequest {
  file: string
  /** The platform's URL forms, and the page of this document: links are normalised. */
  urls: PlatformUrls
  pageUrl: string
  /** Key of a shared `Map` from `kind:id` to the file the document will likely be. */
  documents: string
  /** Key of a shared `Map` from a file URL to the diagram source the folder keeps for it. */
  diagrams: string
  /** The document (its id and path) whose files are planned beside it, and the files its record lists. */
  assets: {id: string; path: string; files: RemoteDetail['files']}
  /** Where the body will likely sit in its file (`body-place.ts`): the proof parses it there. */
  place?: BodyPlace
}

/** A record's body (as stored) and title; `early` to convert it too. */
export interface PullBodyRequest {
  body: string
  title: string
  early?: EarlyRequest
}

/** The facts of the body, and its early conversion when one was asked for and the body can be converted. */
export interface PullBodyResult {
  facts: BodyFacts
  early?: {pulled: PulledBody; asked: Asked}
}

/** The facts of a body, and its early conversion when asked for (the pool's task `pullBody`). Never throws for a body. */
export function pullBodyTask(request: PullBodyRequest): PullBodyResult {
  const {tree, trouble} = parseForPull(request.body)
  const facts: BodyFacts = {
    fileUrls: fileUrls(tree),
    codeDiagrams: codeDiagrams(tree),
    ...(trouble ? {trouble: {reason: trouble.reason, ruleId: trouble.ruleId}} : {})
  }
  if (trouble || request.early === undefined) return {facts}
  const early = request.early
  // kbsync's notice is the platform's, never the file's; without one the body is the one parsed, and its tree serves again.
  const body = withoutNotice(request.body, tree)
  const parse = () => (body === request.body ? {tree} : parseForPull(body))
  const asked: Asked = {documents: [], assets: [], diagrams: []}
  const documents = sharedValue<ReadonlyMap<string, string>>(early.documents)
  const diagrams = sharedValue<ReadonlyMap<string, DiagramSource>>(early.diagrams)
  const copies = planAssets([{...early.assets, file: early.file, urls: facts.fileUrls}])
  const pulled = pullParsedBody(
    body,
    parse,
    request.title,
    {
      file: early.file,
      documentOf: (kind, id) => note(asked.documents, {kind, id, answer: documents.get(`${kind}:${id}`)}),
      assetOf: (url) => note(asked.assets, {url, answer: copies.get(url)?.path}),
      diagramOf: (url) => note(asked.diagrams, {url, answer: diagrams.get(url)}),
      links: {forms: formsOf(early.urls), pageUrl: early.pageUrl}
    },
    early.place
  )
  return {facts, early: {pulled, asked}}
}

/** Notes `query` among `asked`, and gives its answer. */
function note<Answer, Query extends {answer: Answer}>(asked: Query[], query: Query): Answer {
  asked.push(query)
  return query.answer
}

const forms = new Map<string, LinkForms>()

/** The URL forms of `urls`, made once per thread (the patterns are compiled). */
function formsOf(urls: PlatformUrls): LinkForms {
  const key = urls.articleUrl ?? ''
  let found = forms.get(key)
  if (found === undefined) {
    found = linkForms(urls)
    forms.set(key, found)
  }
  return found
}
