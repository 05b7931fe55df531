/** Documents as a push's scan leaves them, and render contexts, for the tests of templates (`render-slots.ts`). */
import {dropPositions, parseBodyFacts, type LocalNode, type Resolved} from '../../src/local/index.js'
import {markLocalRefs} from '../../src/local/references.js'
import type {RenderContext} from '../../src/sync/shared/render.js'

/** A document of `body` as a scan leaves it: its tree parsed, each local link marked as resolved (`x/` a topic). */
export function documentOf(body: string, path = 'doc.md'): LocalNode {
  const {facts, tree} = parseBodyFacts(body, path)
  const resolutions: Array<Resolved | null> = facts.refs.map((ref) =>
    ref.kind === 'link'
      ? {link: {target: ref.url.replace(/#.*/, ''), kind: ref.url.endsWith('/') ? 'topic' : 'article'}}
      : null
  )
  markLocalRefs(tree, resolutions)
  dropPositions(tree)
  const bodyKey = `key of ${body}`
  const node: Partial<LocalNode> = {
    path,
    kind: 'article',
    file: path,
    body,
    bodyKey,
    fileBodyKey: bodyKey,
    tree,
    resolutions
  }
  return node as LocalNode
}

/** The render context of the ids `ids` (the root `ROOT`, no files; `notice`: a notice opens each article). */
export function contextOf(ids: ReadonlyMap<string, string>, notice = false): RenderContext {
  return {
    idOf: (target) => ids.get(target),
    rootTopicId: 'ROOT',
    hashOf: () => undefined,
    fileRef: () => undefined,
    ...(notice ? {notice: {text: 'Published from git.'}} : {})
  }
}
