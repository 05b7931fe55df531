/** mdast-util-to-hast handlers of the dialect's nodes (and of raw HTML, kept as text). */
import type {Element, ElementContent, Properties} from 'hast'
import type {Code, Heading, Html, Image, Link} from 'mdast'
import {defaultHandlers, type Handlers, type State} from 'mdast-util-to-hast'
import type {
  AnchorLink,
  ArticleLink,
  Attachment,
  AttachmentsGroup,
  Details,
  DetailsSummary,
  Drawio,
  HintBlock,
  Mark,
  Underline,
  Video
} from '../../../plugins/types.js'
import {prefixFragment} from './clobber.js'
import {drawioSandbox} from './sandbox.js'
import {videoEmbed} from './video.js'

/** What the handlers need to turn ids and URLs into hrefs. */
export interface Resolvers {
  articleHref: (id: string) => string
  topicHref: (id: string) => string
  anchorHref: (id: string) => string
  resolveUrl: (url: string, kind: 'image' | 'attachment' | 'video' | 'drawio' | 'link') => string
  /** The prefix of ids (the sanitiser adds it); the body's own in-page links get it here. */
  clobberPrefix: string
  /** The id of a heading (before the prefix) in the conversion `state` runs, undefined for none. */
  headingId: (node: Heading, state: State) => string | undefined
  /** The highlighted children of a code block's `<code>`, undefined to leave it plain. */
  highlight?: CodeHighlighter
}

/** Highlights a code block: the `<code>` element's children (spans of tokens), or undefined to leave it plain. */
export type CodeHighlighter = (code: string, lang: string | undefined) => ElementContent[] | undefined

function element(tagName: string, properties: Properties, children: ElementContent[] = []): Element {
  return {type: 'element', tagName, properties, children}
}

function wrap(state: State, node: Parameters<State['all']>[0], result: Element): Element {
  state.patch(node as never, result)
  return state.applyData(node as never, result)
}

/** The handlers, closed over the resolvers. */
export function dialectHandlers(r: Resolvers): Handlers {
  return {...textHandlers(r), ...blockHandlers(), ...mediaHandlers(r)} as Handlers
}

/** Raw HTML (as text), links, headings (with their ids), code (highlighted) and the dialect's inline marks and links. */
function textHandlers(r: Resolvers): Partial<Handlers> {
  return {
    html: (_state: State, node: Html) => ({type: 'text', value: node.value}),
    link: (state: State, node: Link) =>
      wrap(
        state,
        node,
        element(
          'a',
          {href: r.resolveUrl(prefixFragment(node.url, r.clobberPrefix), 'link'), title: node.title ?? undefined},
          state.all(node)
        )
      ),
    heading: (state: State, node: Heading) => {
      const result = defaultHandlers.heading(state, node)
      const id = r.headingId(node, state)
      if (id !== undefined) result.properties.id = id
      return result
    },
    code: (state: State, node: Code) => codeBlock(state, node, r.highlight),
    underline: (state: State, node: Underline) => wrap(state, node, element('u', {}, state.all(node))),
    mark: (state: State, node: Mark) => wrap(state, node, element('mark', {dataColor: node.color}, state.all(node))),
    articleLink: (state: State, node: ArticleLink) => {
      const properties: Properties =
        node.articleId === undefined
          ? {href: r.topicHref(node.topicId ?? ''), dataNode: 'articleLink', dataTopicId: node.topicId}
          : {href: r.articleHref(node.articleId), dataNode: 'articleLink', dataArticleId: node.articleId}
      return wrap(state, node, element('a', properties, state.all(node)))
    },
    anchorLink: (state: State, node: AnchorLink) =>
      wrap(
        state,
        node,
        element('a', {
          id: node.identifier,
          href: r.anchorHref(node.identifier),
          dataNode: 'anchorLink',
          dataId: node.identifier
        })
      )
  } as Partial<Handlers>
}

/** The dialect's containers: hint blocks, details blocks, attachment groups. */
function blockHandlers(): Partial<Handlers> {
  return {
    hintBlock: (state: State, node: HintBlock) =>
      wrap(
        state,
        node,
        element(
          'div',
          {className: ['kb-hint'], dataNode: 'hintBlock', dataColor: node.color},
          state.wrap(state.all(node), true)
        )
      ),
    details: (state: State, node: Details) =>
      wrap(state, node, element('details', {dataNode: 'details'}, state.wrap(state.all(node), true))),
    detailsSummary: (state: State, node: DetailsSummary) => wrap(state, node, element('summary', {}, state.all(node))),
    attachmentsGroup: (state: State, node: AttachmentsGroup) =>
      wrap(
        state,
        node,
        element('ul', {className: ['kb-attachments'], dataNode: 'attachmentsGroup'}, state.wrap(state.all(node), true))
      )
  } as Partial<Handlers>
}

/** Images, attachments, diagram frames and videos, each address through the resolver. */
function mediaHandlers(r: Resolvers): Partial<Handlers> {
  return {
    image: (state: State, node: Image) =>
      wrap(
        state,
        node,
        element('img', {
          src: r.resolveUrl(node.url, 'image'),
          alt: node.alt ?? '',
          title: node.title ?? undefined,
          width: node.width,
          height: node.height
        })
      ),
    attachment: (state: State, node: Attachment, parent?: {type: string}) => {
      const link = element(
        'a',
        {href: r.resolveUrl(node.url, 'attachment'), dataNode: 'attachment', download: node.name},
        [{type: 'text', value: node.name}]
      )
      // A list item only inside its group's list: an attachment in running text stays a link (an `li` in a `p` is invalid HTML).
      return wrap(state, node, parent?.type === 'attachmentsGroup' ? element('li', {}, [link]) : link)
    },
    drawio: (state: State, node: Drawio) => {
      const src = r.resolveUrl(node.url, 'drawio')
      return wrap(
        state,
        node,
        element('iframe', {dataNode: 'drawio', src, width: node.width, sandbox: drawioSandbox(src), loading: 'lazy'})
      )
    },
    video: (state: State, node: Video) => {
      const embed = videoEmbed(node.url)
      if (embed) {
        const src = r.resolveUrl(embed.src, 'video')
        return wrap(
          state,
          node,
          element('iframe', {
            dataNode: 'video',
            dataService: embed.service,
            dataSrc: node.url,
            src,
            allowFullScreen: true,
            loading: 'lazy'
          })
        )
      }
      return wrap(
        state,
        node,
        element('video', {dataNode: 'video', src: r.resolveUrl(node.url, 'video'), controls: true})
      )
    }
  } as Partial<Handlers>
}

/** A code block as `defaultHandlers.code` builds it, its text replaced by the highlighter's tokens when it gives some. */
function codeBlock(state: State, node: Code, highlight: CodeHighlighter | undefined): Element {
  const result = defaultHandlers.code(state, node)
  // The first word names the language, as GitHub and CommonMark read an info string.
  const tokens = node.value === '' ? undefined : highlight?.(node.value, node.lang?.split(/\s+/)[0] || undefined)
  const code = result.children[0]
  if (tokens && code?.type === 'element') code.children = [...tokens, {type: 'text', value: '\n'}]
  return result
}
