/** Article and topic links `<a data-node=articleLink data-article-id=ID>…</a>`. */
import type {Options} from 'mdast-util-to-markdown'
import type {ArticleLink} from './types.js'
import {attribute, registerKb, withPeek, wrapPhrasing, type KbHandle} from './util.js'

const articleLink: KbHandle = withPeek((node: ArticleLink, _, state, info) => {
  const id = node.articleId === undefined ? attribute('data-topic-id', node.topicId ?? '') : attribute('data-article-id', node.articleId)
  return wrapPhrasing(node, state, info, `<a data-node="articleLink"${id}>`, '</a>')
})

/** to-markdown extension for `articleLink`. */
export function articleLinkToMarkdown(): Options {
  return {handlers: {articleLink}}
}

/** remark plugin: the dialect's article and topic links. */
export function remarkKbArticleLink(this: any) {
  return registerKb(this, [articleLinkToMarkdown()])
}
