/**
 * One resolution per linked document. A body of 300 links resolved each
 * into objects of its own (the resolution, its target's path, and a copy
 * in the document's list of links), some 200 bytes per link held for the
 * whole push: 900,000 links made 180 MB. Every link of a scan to the same
 * document shares one frozen resolution instead, so a link costs the slot
 * that points at it.
 */
import {ownString} from './body-release.js'
import type {LocalRef, Resolved} from './references.js'
import type {LinkRef} from './types.js'

type LinkResolved = Extract<Resolved, {link: LinkRef}>

/** The shared resolutions of one scan, by kind and target, and the one string of each reference's URL. */
export class SharedLinks {
  private readonly byKind = new Map<LinkRef['kind'], Map<string, LinkResolved>>()
  private readonly urls = new Map<string, string>()

  /**
   * Gives each reference of `refs` (in place) the scan's one string of its
   * URL, a string of its own. A parsed URL is a slice of the body's text: 300
   * slices per body (32 bytes each) kept every body alive as long as the
   * scan kept its references, after the push let go of the text.
   */
  shareUrls(refs: LocalRef[]): void {
    for (const ref of refs) {
      let url = this.urls.get(ref.url)
      if (url === undefined) this.urls.set(ref.url, (url = ownString(ref.url)))
      ref.url = url
    }
  }

  /** Replaces, in place, each link of `resolutions` by the scan's one resolution of its document. */
  share(resolutions: Array<Resolved | null>): void {
    for (let index = 0; index < resolutions.length; index++) {
      const resolved = resolutions[index]
      if (resolved && 'link' in resolved) resolutions[index] = this.sharedOf(resolved)
    }
  }

  private sharedOf(resolved: LinkResolved): LinkResolved {
    const {target, kind} = resolved.link
    let byTarget = this.byKind.get(kind)
    if (byTarget === undefined) this.byKind.set(kind, (byTarget = new Map()))
    let shared = byTarget.get(target)
    if (shared === undefined) byTarget.set(target, (shared = Object.freeze({link: Object.freeze({target, kind})})))
    return shared
  }
}

/** The documents a body links to, each once, in document order (the shared link objects of `SharedLinks`). */
export function linksOf(resolutions: ReadonlyArray<Resolved | null>): LinkRef[] {
  const seen = new Set<LinkRef>()
  for (const resolved of resolutions) if (resolved && 'link' in resolved) seen.add(resolved.link)
  return [...seen]
}
