/**
 * The render of a pulled body, known from its proof (issue 32). The proof
 * parses the file's body as push will and puts each reference back as it
 * was (`restoreTree`): when that tree is the platform's body's tree, it
 * serialises to the body's canonical text. The check after the pull renders
 * the same bytes, resolving each reference through the folder instead: a
 * link becomes an article or topic link with the id its target has, a file
 * the URL the state knows for its content. Where every reference resolves to
 * what the proof put back (the same kind of link and id, the same URL), that
 * render is the proof's tree, node for node, and its hash is the canonical
 * text's: the check takes it without parsing and serialising the body again.
 * Any other answer (a target that moved, a file known under another URL, a
 * diagram, the notice push adds) and the check renders, as before.
 */
import type {LocalRef, Resolved} from '../../local/index.js'
import type {Origin} from './localize.js'
import type {RenderContext} from './render.js'
import {bodyHash} from './remote.js'

/** The render the check will find, if each reference (document order) resolves to what `expects` says. */
export interface RenderPrediction {
  /** The hash of the canonical text the proof's tree serialises to. */
  hash: string
  /** What the proof put back for each local reference, in the order the scan resolves them. */
  expects: Origin[]
}

/**
 * The prediction for a body whose proof's tree (`restoreTree` with
 * `origins`) is the platform body's tree, of canonical text `canonical`,
 * and whose parse found the references `refs`; undefined when a reference
 * is one the proof does not put back as the render would (a diagram block,
 * a link or file it did not write).
 */
export function predictRender(
  refs: readonly LocalRef[],
  origins: ReadonlyMap<string, Origin>,
  canonical: string
): RenderPrediction | undefined {
  const expects: Origin[] = []
  for (const ref of refs) {
    const origin = origins.get(ref.url)
    const restored =
      ref.kind === 'link'
        ? origin !== undefined && 'id' in origin
        : (ref.kind === 'image' || ref.kind === 'attachment') && origin !== undefined && 'url' in origin
    if (!restored) return undefined
    expects.push(origin!)
  }
  return {hash: bodyHash(canonical), expects}
}

/** Whether the render resolves `resolved` with `context` to what the proof put back, `expected`. */
function resolvesAsExpected(resolved: Resolved | null | undefined, expected: Origin, context: RenderContext): boolean {
  if (!resolved) return false
  if ('link' in resolved) {
    if (!('id' in expected) || resolved.link.kind !== expected.kind) return false
    const {target} = resolved.link
    // The root folder is a link only to a root topic (`renderedTree`).
    const id = target === '' ? (context.rootTopicId ?? undefined) : context.idOf(target)
    return id === expected.id
  }
  if ('asset' in resolved) {
    if (!('url' in expected)) return false
    const sha = context.hashOf(resolved.asset.path)
    return sha !== undefined && context.fileRef(sha) === expected.url
  }
  return false
}

/**
 * The check's render of an article or topic body whose references the scan
 * resolved as `resolutions`, from `prediction`, when every reference
 * resolves with `context` as predicted (then complete: no placeholder);
 * undefined when the body must be rendered.
 */
export function predictedRender(
  kind: 'article' | 'topic',
  resolutions: ReadonlyArray<Resolved | null> | undefined,
  prediction: RenderPrediction,
  context: RenderContext
): {hash: string; complete: boolean} | undefined {
  // The notice opens every article's render: not in the proof's tree.
  if (context.notice && kind === 'article') return undefined
  const resolved = resolutions ?? []
  if (resolved.length !== prediction.expects.length) return undefined
  for (let index = 0; index < resolved.length; index++)
    if (!resolvesAsExpected(resolved[index], prediction.expects[index]!, context)) return undefined
  return {hash: prediction.hash, complete: true}
}
