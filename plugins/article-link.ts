/** Article and topic links `<a data-node=articleLink data-article-id=ID>…</a>`. */
import type {Options} from 'mdast-util-to-markdown'
import {reject, type KbConstruct, type PhrasingEntry} from './construct.js'
import {constructPlugin} from './register.js'
import {attribute, withPeek, wrapPhrasing, type KbHandle} from './tag-writer.js'
import type {ArticleLink} from './types.js'

/** `<a data-node=articleLink>`: an article id or a topic id (the article's wins, reported, when both are there). */
const entry: PhrasingEntry = {
  tag: 'a',
  node: 'articleLink',
  close({tag, open, take, problems}) {
    const articleId = tag.attributes['data-article-id']
    const topicId = tag.attributes['data-topic-id']
    if (articleId !== undefined && topicId !== undefined) {
      problems.push({
        reason: 'An article link names both `data-article-id` and `data-topic-id`: the topic id is dropped',
        ruleId: 'kb-invalid-attribute',
        place: open.position
      })
    }
    if (articleId !== undefined) return {type: 'articleLink', articleId, children: take()}
    if (topicId !== undefined) return {type: 'articleLink', topicId, children: take()}
    return reject('Article link without `data-article-id` or `data-topic-id`', 'kb-missing-attribute')
  }
}

/** The attributes that hold an article link's id: an article's, or a topic's. */
export const articleLinkIdAttributes = ['data-article-id', 'data-topic-id'] as const

/** The attribute of `articleLinkIdAttributes` that holds an article link's id. */
export type ArticleLinkIdAttribute = (typeof articleLinkIdAttributes)[number]

/** The close tag of an article link. */
export const articleLinkCloseTag = '</a>'

/** The open tag of an article link as the dialect writes it: the id `id` in the attribute `name`, escaped. */
export function articleLinkOpenTag(name: ArticleLinkIdAttribute, id: string): string {
  return `<a data-node="articleLink"${attribute(name, id)}>`
}

const articleLink: KbHandle = withPeek((node: ArticleLink, _, state, info) => {
  const open =
    node.articleId === undefined
      ? articleLinkOpenTag('data-topic-id', node.topicId ?? '')
      : articleLinkOpenTag('data-article-id', node.articleId)
  return wrapPhrasing(node, state, info, open, articleLinkCloseTag)
})

/** to-markdown extension for `articleLink`. */
export function articleLinkToMarkdown(): Options {
  return {handlers: {articleLink}}
}

/** The article link construct: how its tags are paired and how it is written. */
export const articleLinkConstruct: KbConstruct = {
  name: 'articleLink',
  phrasing: [entry],
  toMarkdown: articleLinkToMarkdown()
}

/** remark plugin: the dialect's article and topic links. */
export const remarkKbArticleLink = constructPlugin(articleLinkConstruct)
