/**
 * The sandbox of a diagram frame. A frame allowed both scripts and its own
 * origin can, when that origin is the embedding page's, reach into the page
 * and remove its own sandbox; so only a known diagram viewer, whose origin is
 * never that of a page embedding this HTML, keeps its origin (the
 * diagrams.net viewer uses it for local storage and to fetch the diagram).
 * Every other source, relative ones above all, runs scripts in an opaque
 * origin.
 */

/** Hosts of the diagrams.net (draw.io) viewer. */
const viewerHost = /(?:^|\.)(?:diagrams\.net|draw\.io)$/i

/** Whether `src` is an absolute https URL of the diagrams.net viewer. */
function isDiagramViewer(src: string): boolean {
  try {
    const url = new URL(src)
    return url.protocol === 'https:' && viewerHost.test(url.hostname)
  } catch {
    return false // relative, protocol-relative or malformed: possibly the page's own origin
  }
}

/** The `sandbox` tokens of a drawio frame showing `src`. */
export function drawioSandbox(src: string): string[] {
  return isDiagramViewer(src)
    ? ['allow-scripts', 'allow-same-origin', 'allow-popups']
    : ['allow-scripts', 'allow-popups']
}
