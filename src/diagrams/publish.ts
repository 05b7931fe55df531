/** What a rendered diagram or formula becomes in the published body: the image of its rendering. */
import type {Image, Paragraph} from 'mdast'
import {altOf, nodeDiagramKind, type DiagramKind} from './kinds.js'
import {diagramAlt} from './mermaid-source.js'

/** The paragraph that replaces a Mermaid block of `source` whose rendering the body references as `url`. */
export function diagramImage(source: string, url: string): Paragraph {
  return {type: 'paragraph', children: [{type: 'image', url, alt: diagramAlt(source)}]}
}

/**
 * What replaces a rendered source of `kind`: a block (a diagram, a display
 * formula) becomes a paragraph holding its image, an inline formula the
 * image alone, in the text. The alt text is the source's (`altOf`).
 */
export function renderedImage(kind: DiagramKind, source: string, url: string): Paragraph | Image {
  const image: Image = {type: 'image', url, alt: altOf(kind, source)}
  return kind === 'math-inline' ? image : {type: 'paragraph', children: [image]}
}

/** The image that replaces the dialect node `node` (a diagram block, a formula) whose rendering is at `url`. */
export function renderedNode(node: {type: string; lang?: string | null; value?: string; data?: object}, url: string) {
  return renderedImage(nodeDiagramKind(node) ?? 'mermaid', node.value ?? '', url)
}
