/**
 * The seam between the folder side and the dialect toolchain: GFM source to
 * a dialect tree (with the conversion's warnings), and a dialect tree to the
 * canonical body text.
 *
 * TEMPORARY: until `gfmToKbTree`/`stringifyKb` land in `src/dialect/`, a
 * plain remark pipeline stands in, so the engine can be built and tested.
 */
import type {Root} from 'mdast'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkStringify from 'remark-stringify'
import {unified} from 'unified'
import * as dialect from '../dialect/index.js'

/** A warning or error of the conversion, with its position. */
export interface ConversionMessage {
  message: string
  line?: number
  column?: number
  fatal?: boolean | null
  ruleId?: string
}

interface DialectApi {
  parseKb?: (markdown: string) => Root
  gfmToKbTree?: (markdown: string, options?: {path?: string}) => {tree: Root; messages: ConversionMessage[]}
  stringifyKb?: (tree: Root) => string
}

const api = dialect as DialectApi

/** Converts GFM source to a dialect tree. */
export function toKbTree(markdown: string, file: string): {tree: Root; messages: ConversionMessage[]} {
  if (api.gfmToKbTree) return api.gfmToKbTree(markdown, {path: file})
  if (api.parseKb) return {tree: api.parseKb(markdown), messages: []}
  const tree = unified().use(remarkParse).use(remarkGfm).parse(markdown) as Root
  return {tree, messages: []}
}

/** Serialises a dialect tree to the canonical body. */
export function toKbText(tree: Root): string {
  if (api.stringifyKb) return api.stringifyKb(tree)
  return unified()
    .use(remarkGfm)
    .use(remarkStringify, {
      bullet: '-',
      handlers: {
        articleLink(node: {articleId?: string; topicId?: string; children: unknown[]}, _parent: unknown, state: {containerPhrasing: (n: unknown, info: unknown) => string}, info: unknown) {
          const id = node.articleId ? `data-article-id="${node.articleId}"` : `data-topic-id="${node.topicId}"`
          return `<a data-node="articleLink" ${id}>${state.containerPhrasing(node, info)}</a>`
        },
        attachmentsGroup(node: {children: Array<{url: string; name: string}>}) {
          return ['<div data-node="attachmentsGroup">', ...node.children.map((a) => `<a data-node="attachment" href="${a.url}">${a.name}</a>`), '</div>'].join('\n')
        }
      } as never
    })
    .stringify(tree)
}

interface GfmApi {
  kbToGfm?: (markdown: string, options?: unknown) => {markdown: string} | string
}

/** Converts a dialect body to GitHub-flavoured Markdown for a person to read (conflict files). */
export function toGfmText(markdown: string): string {
  const convert = (dialect as GfmApi).kbToGfm
  if (!convert) return markdown
  const result = convert(markdown)
  return typeof result === 'string' ? result : result.markdown
}
