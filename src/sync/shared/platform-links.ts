/**
 * Links in a remote body that a folder would read otherwise than the
 * platform does, made what they mean before a pull writes them:
 *
 * - a link to an article or topic in one of the platform's URL forms
 *   (`https://pyrus.com/t#kb/article/ID`, `…#kb/topic/ID`, the configured
 *   `articleUrl`) becomes an article or topic link, so a pulled target is
 *   written as a relative link to its file;
 * - a relative URL (`setup.md`, `/guide`) means, on the platform, the
 *   address a reader's browser resolves against the article's page; in the
 *   folder it would name a file that is not there and the next plan would
 *   refuse it. It is written as that absolute URL instead, and reported.
 *
 * Pure tree transforms on the parsed remote body.
 */
import type {Root} from 'mdast'
import {visit} from 'unist-util-visit'
import {isLocalUrl} from '../../local/index.js'

/** Where the platform shows items: the configured `articleUrl` template (`{id}` standing for the id), else pyrus.com's. */
export interface PlatformUrls {
  articleUrl?: string
}

/** An article or topic a URL names. */
export interface ItemRef {
  kind: 'article' | 'topic'
  id: string
}

const defaultArticleUrl = 'https://pyrus.com/t#kb/article/{id}'

/** The page of item `ref` in the web application. */
export function itemPageUrl(ref: ItemRef, urls: PlatformUrls): string {
  const template = templates(urls)[ref.kind][0]!
  return template.split('{id}').join(encodeURIComponent(ref.id))
}

/**
 * The platform's URL forms ready to match a link against: the pattern of
 * each kind's templates, in order (undefined for a template without `{id}`).
 * Made once per pull by `linkForms`, not once per link.
 */
export type LinkForms = Record<ItemRef['kind'], ReadonlyArray<RegExp | undefined>>

/** `urls` made ready to match links against (see `LinkForms`). */
export function linkForms(urls: PlatformUrls): LinkForms {
  const {article, topic} = templates(urls)
  return {article: article.map(templatePattern), topic: topic.map(templatePattern)}
}

/** The URL templates of each kind: the configured one first (a topic's derived from `/article/`), then pyrus.com's. */
function templates(urls: PlatformUrls): Record<ItemRef['kind'], string[]> {
  const article = [...(urls.articleUrl ? [urls.articleUrl] : []), defaultArticleUrl]
  const topic = article
    .filter((template) => template.includes('/article/'))
    .map((template) => template.replace('/article/', '/topic/'))
  return {article, topic: topic.length > 0 ? topic : [defaultArticleUrl.replace('/article/', '/topic/')]}
}

/**
 * The article or topic `url` links to, when it is one of the platform's
 * forms: a configured template, or `https://pyrus.com/t#kb/article/ID` on
 * pyrus.com or a subdomain. The id's part may carry a title before a
 * hyphen (`…/article/install-guide-ID`): ids hold no hyphen, the id is
 * what follows the last one.
 */
export function platformItemOf(url: string, urls: PlatformUrls): ItemRef | undefined {
  return itemOf(url, linkForms(urls))
}

/** `platformItemOf` with the URL forms already made ready. */
function itemOf(url: string, forms: LinkForms): ItemRef | undefined {
  for (const kind of ['article', 'topic'] as const) {
    for (const pattern of forms[kind]) {
      const id = idOf(matchTemplate(url, pattern))
      if (id !== undefined) return {kind, id}
    }
  }
  const match = /^https?:\/\/(?:[a-z0-9-]+\.)*pyrus\.com\/t\/?#kb\/(article|topic)\/([^/?#&\s]+)\/?$/i.exec(url)
  const id = idOf(match?.[2])
  return id === undefined ? undefined : {kind: match![1]!.toLowerCase() as ItemRef['kind'], id}
}

/** The id in the last part of an item URL (after a title and a hyphen, if any). */
function idOf(part: string | undefined): string | undefined {
  const id = part?.slice(part.lastIndexOf('-') + 1)
  return id === '' ? undefined : id
}

/** The pattern of a URL that fits `template`, its `{id}` captured; undefined when the template has no `{id}`. */
function templatePattern(template: string): RegExp | undefined {
  if (!template.includes('{id}')) return undefined
  const pattern = template
    .split('{id}')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('([^/?#&\\s]+)')
  return new RegExp(`^${pattern}/?$`)
}

/** The id `url` puts where a template has `{id}` (`pattern`, from `templatePattern`), or undefined when it does not fit. */
function matchTemplate(url: string, pattern: RegExp | undefined): string | undefined {
  if (pattern === undefined) return undefined
  const match = pattern.exec(url)
  if (!match) return undefined
  try {
    return decodeURIComponent(match[1]!)
  } catch {
    return match[1]
  }
}

/** A relative URL of the remote body and the absolute one written instead. */
export interface RewrittenUrl {
  from: string
  to: string
}

/**
 * Rewrites `tree` in place: links in a platform URL form (`forms`, from
 * `linkForms`) to an item `isPulled` says the folder holds become article or
 * topic links; relative link URLs become absolute against `pageUrl`. Returns
 * the relative URLs rewritten, in document order.
 */
export function normalizeRemoteLinks(
  tree: Root,
  context: {forms: LinkForms; pageUrl: string; isPulled(ref: ItemRef): boolean}
): RewrittenUrl[] {
  const rewritten: RewrittenUrl[] = []
  visit(tree, (node, index, parent) => {
    if (node.type !== 'link' && node.type !== 'definition') return
    if (isLocalUrl(node.url)) {
      const to = absolute(node.url, context.pageUrl)
      if (to === undefined) return
      rewritten.push({from: node.url, to})
      node.url = to
      return
    }
    // A link with a title would lose it as an article link: it stays a URL.
    if (node.type !== 'link' || node.title || !parent || index === undefined) return
    const ref = itemOf(node.url, context.forms)
    if (!ref || !context.isPulled(ref)) return
    const link = {
      type: 'articleLink',
      ...(ref.kind === 'article' ? {articleId: ref.id} : {topicId: ref.id}),
      children: node.children
    }
    parent.children.splice(index, 1, link as never)
  })
  return rewritten
}

function absolute(url: string, base: string): string | undefined {
  try {
    return new URL(url, base).href
  } catch {
    return undefined
  }
}
