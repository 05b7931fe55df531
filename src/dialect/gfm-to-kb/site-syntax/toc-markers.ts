/**
 * Table-of-contents markers on a line of their own: VitePress's `[[toc]]`,
 * Python-Markdown's (MkDocs) `[TOC]`, GitLab's and Azure DevOps' `[[_TOC_]]`.
 * The sites put a list of the page's headings there; the platform shows
 * none in a body, so the marker goes (a reader would see it as text), in
 * one warning per page.
 */
import {CodeLines} from './code-lines.js'
import {splitPrefix, type SiteSource} from './lines.js'

const marker = /^(?:\[\[toc\]\]|\[TOC\]|\[\[_TOC_\]\])[ \t\r]*$/

/** Whether `markdown` may hold a marker: the cheap test before the pass. */
export function mayHoldTocMarker(markdown: string): boolean {
  return /^[ \t>]*\[(?:\[toc\]|TOC|\[_TOC_\])\]/m.test(markdown)
}

/** Leaves out the markers of `site` outside code (see the module comment). */
export function dropTocMarkers(site: SiteSource): void {
  const code = new CodeLines()
  let first: {line: number; column: number} | undefined
  for (let index = 0; index < site.lines.length; index++) {
    const [prefix, rest] = splitPrefix(site.lines[index]!)
    if (code.isCode(site.lines[index]!) || !marker.test(rest)) continue
    site.lines[index] = prefix
    first ??= {line: site.origin[index]!, column: prefix.length + 1}
  }
  if (first)
    site.messages.push({
      ...first,
      ruleId: 'kb-toc-marker',
      reason:
        'A table-of-contents marker is left out: the platform shows no list of a page’s headings inside its body. Remove the marker, or write the list of links by hand.'
    })
}
