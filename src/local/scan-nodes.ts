/**
 * The nodes of the desired tree, from the layout: each topic and article
 * with its key, parent, title (`titles.ts`), id, permissions and the body
 * still to be converted. Every document is recorded in the index links
 * resolve against.
 */
import path from 'node:path'
import {maxArticleBytes} from './article-limit.js'
import type {BlankPage} from './blank-pages.js'
import {bodyOf, type DocumentHead} from './body.js'
import type {Diagnostic} from './diagnostic.js'
import {documentStem} from './file-names.js'
import {sourceHashOf} from './hash.js'
import {indexName, type LayoutArticle, type LayoutNode, type LayoutTopic} from './layout.js'
import {recordDocument} from './link-targets.js'
import {parsePermissionsFile} from './permissions.js'
import type {DocumentIndex} from './references.js'
import type {PendingBody} from './scan-bodies.js'
import {chooseTitle} from './titles.js'
import type {LocalArticle, LocalNode, LocalTopic} from './types.js'

/** What building the nodes reads and fills. */
export interface NodeContext {
  /** A document's text and head (read once per file). */
  headOf(file: string): {text: string; head: DocumentHead}
  readText(file: string): string
  /** The `_permissions.yml` of a folder, when it has one. */
  permissionsFileOf(folder: string): string | undefined
  documents: DocumentIndex
  byPath: Record<string, LocalNode>
  bodies: PendingBody[]
  /** The articles whose file holds no body. */
  blankPages: BlankPage[]
  diagnostics: Diagnostic[]
}

/** Builds the node tree of `layout` (the root topic). */
export function buildNodes(layout: LayoutTopic, context: NodeContext): LocalTopic {
  const root = startTopic(layout, undefined, context)
  // An explicit stack (a folder chain may be deeper than a recursion can go), each node built in the recursion's order.
  const stack: Array<{layout: LayoutNode; parent: string; into: LocalNode[]}> = []
  const below = (topic: LayoutTopic, made: LocalTopic) => {
    for (let i = topic.children.length - 1; i >= 0; i--)
      stack.push({layout: topic.children[i]!, parent: made.path, into: made.children})
  }
  below(layout, root)
  while (stack.length > 0) {
    const {layout: node, parent, into} = stack.pop()!
    if (node.kind === 'article') {
      into.push(buildArticle(node, parent, context))
      continue
    }
    const topic = startTopic(node, parent, context)
    into.push(topic)
    below(node, topic)
  }
  return root
}

/** The topic of `layout` without its children (the caller builds them). */
function startTopic(layout: LayoutTopic, parent: string | undefined, context: NodeContext): LocalTopic {
  const {documents, diagnostics} = context
  const key = layout.key
  // Titles from names are NFC: macOS may hand out names in NFD, which would look the same and compare different.
  const name =
    layout.folder !== undefined
      ? path.posix.basename(layout.folder).normalize('NFC')
      : layout.file !== undefined
        ? documentStem(layout.file)
        : (layout.navTitle ?? key)
  const topic: LocalTopic = {
    kind: 'topic',
    path: key,
    title: key === '' ? '' : name,
    children: [],
    refs: {links: [], assets: []}
  }
  if (parent !== undefined) topic.parent = parent
  if (layout.nav) topic.navigation = layout.nav
  if (layout.ordered) topic.ordered = true
  documents.topics.add(key)
  context.byPath[key] = topic
  const file = layout.file
  if (file !== undefined) {
    const {text, head} = context.headOf(file)
    const legacy = path.posix.basename(file) === indexName
    const chosen =
      layout.label !== undefined
        ? {title: layout.label, from: 'navigation' as const, dropHeading: head.heading?.title === layout.label}
        : chooseTitle(head, layout.navTitle, name, !legacy)
    const {body, empty} = bodyOf(head, chosen.dropHeading)
    topic.file = file
    recordDocument(documents, file, {target: key, kind: 'topic'}, head.frontMatter)
    topic.sourceHash = sourceHashOf(text)
    if (key !== '') {
      topic.title = chosen.title
      topic.titleFrom = chosen.from
      if (chosen.dropHeading && head.heading) topic.titleLine = head.heading.line
    }
    if (head.frontMatter.kbId) topic.kbId = head.frontMatter.kbId
    if (head.frontMatter.permissions) {
      diagnostics.push({
        severity: 'warning',
        file,
        line: 2,
        message: "A topic's permissions belong in `_permissions.yml`; the front matter key is ignored",
        rule: 'permissions-misplaced'
      })
    }
    if (key === '') rootIndexWarning(file, head, empty, diagnostics)
    else if (!empty) context.bodies.push({node: topic, file, body, frontMatter: head.frontMatter.yaml})
  } else if (key !== '') {
    const chosen = chooseTitle(undefined, layout.label ?? layout.navTitle, name)
    topic.title = chosen.title
    topic.titleFrom = chosen.from
  }
  const permissionsFile = layout.folder !== undefined ? context.permissionsFileOf(layout.folder) : undefined
  if (permissionsFile) {
    const permissions = parsePermissionsFile(context.readText(permissionsFile), permissionsFile, diagnostics)
    if (permissions) topic.permissions = permissions
  }
  return topic
}

function buildArticle(layout: LayoutArticle, parent: string, context: NodeContext): LocalArticle {
  const {file} = layout
  const {text, head} = context.headOf(file)
  const chosen = chooseTitle(head, layout.navTitle, documentStem(file))
  const {body, empty} = bodyOf(head, chosen.dropHeading)
  const article: LocalArticle = {
    kind: 'article',
    path: file,
    parent,
    file,
    title: chosen.title,
    titleFrom: chosen.from,
    source: text,
    sourceHash: sourceHashOf(text),
    hasFrontMatter: head.frontMatter.present,
    refs: {links: [], assets: []}
  }
  const headingLine = chosen.dropHeading ? head.heading?.line : undefined
  if (headingLine !== undefined) article.titleLine = headingLine
  if (layout.nav) article.navigation = layout.nav
  if (head.frontMatter.kbId) article.kbId = head.frontMatter.kbId
  if (head.frontMatter.permissions) article.permissions = head.frontMatter.permissions
  context.documents.articles.add(file)
  recordDocument(context.documents, file, {target: file, kind: 'article'}, head.frontMatter)
  context.byPath[file] = article
  if (empty) {
    // Left out or given a line once every body is read (`blank-pages.ts`).
    context.blankPages.push({
      node: article,
      file,
      written: false,
      frontMatter: head.frontMatter.yaml,
      line: headingLine ?? Math.max(1, head.frontMatter.lineCount)
    })
  } else if (Buffer.byteLength(body) > maxArticleBytes) {
    // Converting tens of MB takes minutes and the platform's editor could not open the result: refuse early.
    context.diagnostics.push({
      severity: 'error',
      file,
      line: 1,
      message: `The article is ${(Buffer.byteLength(body) / 1048576).toFixed(1)} MB; the limit is ${maxArticleBytes / 1048576} MB`,
      hint: 'Split it into several articles, or attach large content as files',
      rule: 'article-too-large'
    })
  } else {
    context.bodies.push({node: article, file, body, frontMatter: head.frontMatter.yaml})
  }
  return article
}

/** The root maps to the knowledge base or the configured topic, which kbsync never writes: what its `_index.md` says is ignored. */
function rootIndexWarning(file: string, head: DocumentHead, empty: boolean, diagnostics: Diagnostic[]): void {
  const ignored = [
    head.frontMatter.title ? '`title`' : '',
    head.frontMatter.kbId ? '`kb_id`' : '',
    empty ? '' : 'body'
  ].filter(Boolean)
  if (ignored.length === 0) return
  diagnostics.push({
    severity: 'warning',
    file,
    line: 1,
    message: `The root folder maps to the configured root, which kbsync does not write: its ${ignored.join(' and ')} ${ignored.length > 1 ? 'are' : 'is'} ignored`,
    hint: 'Move the text into an article, or sync the parent folder so that this one is a topic',
    rule: 'root-index'
  })
}
