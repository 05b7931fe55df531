/**
 * mdast node types of the knowledge-base dialect.
 *
 * They are a public contract (documented in the README): the parser builds
 * them, the serializer writes them, the conversions and the sync engine read
 * them. Declaring them by augmenting mdast's content maps makes `visit`,
 * handlers and `state.enter` type-safe, as in mdast-util-directive.
 */
import type {BlockContent, Parent, PhrasingContent} from 'mdast'

/** The 11 colour tokens of highlights and hint blocks. */
export const colorTokens = [
  'red',
  'pink',
  'orange',
  'orangeYellow',
  'yellow',
  'green',
  'greenBlue',
  'blue',
  'violet',
  'purple',
  'gray'
] as const

/** A colour token of the dialect. */
export type ColorToken = (typeof colorTokens)[number]

/** `<u>…</u>`. */
export interface Underline extends Parent {
  type: 'underline'
  children: PhrasingContent[]
}

/** `<mark data-color=TOKEN>…</mark>`. */
export interface Mark extends Parent {
  type: 'mark'
  color: ColorToken
  children: PhrasingContent[]
}

/** `<a data-node=articleLink data-article-id=ID>…</a>` or `data-topic-id=ID`: exactly one of the ids is set. */
export interface ArticleLink extends Parent {
  type: 'articleLink'
  articleId?: string
  topicId?: string
  children: PhrasingContent[]
}

/** `<a data-node=anchorLink data-id=ANCHOR />`. */
export interface AnchorLink {
  type: 'anchorLink'
  identifier: string
  position?: import('unist').Position
  data?: import('unist').Data
}

/** `<div data-node=hintBlock data-color=TOKEN>` holding block content. */
export interface HintBlock extends Parent {
  type: 'hintBlock'
  color: ColorToken
  children: BlockContent[]
}

/** The `<summary>` of a details block. */
export interface DetailsSummary extends Parent {
  type: 'detailsSummary'
  children: PhrasingContent[]
}

/** `<details><summary>…</summary>…</details>`: first child the summary, then block content. */
export interface Details extends Parent {
  type: 'details'
  children: [DetailsSummary, ...BlockContent[]] | BlockContent[] | Array<DetailsSummary | BlockContent>
}

/** `<a data-node=attachment href=GUID_OR_URL>name</a>` inside an attachments group. */
export interface Attachment {
  type: 'attachment'
  url: string
  name: string
  position?: import('unist').Position
  data?: import('unist').Data
}

/** `<div data-node=attachmentsGroup>` of attachments. */
export interface AttachmentsGroup extends Parent {
  type: 'attachmentsGroup'
  children: Attachment[]
}

/** `<iframe data-node=drawio src=URL width=N></iframe>`. */
export interface Drawio {
  type: 'drawio'
  url: string
  width?: number
  position?: import('unist').Position
  data?: import('unist').Data
}

/** `<video src=URL></video>`. */
export interface Video {
  type: 'video'
  url: string
  position?: import('unist').Position
  data?: import('unist').Data
}

declare module 'mdast' {
  interface Image {
    /** Set on sized images (`<img src alt width height>`). */
    width?: number
    height?: number
  }

  interface PhrasingContentMap {
    underline: Underline
    mark: Mark
    articleLink: ArticleLink
    anchorLink: AnchorLink
  }

  interface BlockContentMap {
    hintBlock: HintBlock
    details: Details
    attachmentsGroup: AttachmentsGroup
    drawio: Drawio
    video: Video
  }

  interface RootContentMap {
    underline: Underline
    mark: Mark
    articleLink: ArticleLink
    anchorLink: AnchorLink
    hintBlock: HintBlock
    details: Details
    detailsSummary: DetailsSummary
    attachmentsGroup: AttachmentsGroup
    attachment: Attachment
    drawio: Drawio
    video: Video
  }
}
