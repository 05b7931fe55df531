/** What a rendered Mermaid block becomes in the published body: a paragraph holding its image. */
import type {Paragraph} from 'mdast'
import {diagramAlt} from './mermaid-source.js'

/** The paragraph that replaces a Mermaid block of `source` whose rendering the body references as `url`. */
export function diagramImage(source: string, url: string): Paragraph {
  return {type: 'paragraph', children: [{type: 'image', url, alt: diagramAlt(source)}]}
}
