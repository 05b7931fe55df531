/**
 * The notice (config `notice`): a hint block at the top of each published
 * article saying where to edit it, with a link to its source file when
 * `repoUrl` is set. Push adds it where a body is rendered (`render.ts`), so
 * the render the state records includes it and a second push writes
 * nothing; pull takes exactly that block off the top of a body before
 * converting it (`withoutNotice`), so it never reaches a file. The block is
 * known by the anchor it opens with (`kbsync-notice`), not by its text: a
 * notice whose text changed, or one left on the platform after `notice` was
 * turned off, is still never pulled.
 */
import type {BlockContent, Paragraph, PhrasingContent, Root, RootContent} from 'mdast'
import path from 'node:path'
import {parseKb} from '../../dialect/index.js'
import {repositoryRoot} from '../../local/index.js'

type HintBlock = Extract<BlockContent, {type: 'hintBlock'}>

/** The anchor id that marks kbsync's notice. */
export const noticeAnchor = 'kbsync-notice'

/** The notice's text when the config says only `true`. */
export const defaultNoticeText = 'This page is published from git; edit it there.'

/** What every article's notice is made of. */
export interface NoticeSettings {
  text: string
  /** The URL of the pushed folder in the repository (`repoUrl` and the folder's path in it): a file's link is this and its path. */
  folderUrl?: string
}

/** The settings of a config's `notice` (`true` or a text), or undefined when it is off. */
export function noticeSettings(
  notice: boolean | string | undefined,
  repoUrl: string | undefined,
  folderInRepository: string
): NoticeSettings | undefined {
  if (notice === undefined || notice === false) return undefined
  const text = notice === true ? defaultNoticeText : notice.trim()
  if (text === '') return undefined
  if (repoUrl === undefined) return {text}
  const folder = folderInRepository.split('/').filter(Boolean).map(encodeURIComponent).join('/')
  return {text, folderUrl: [repoUrl.replace(/\/+$/, ''), folder].filter(Boolean).join('/')}
}

/**
 * The settings of a run over the folder `dir` (absolute): the file links
 * are `repoUrl` joined with the folder's path in its repository (the folder
 * itself outside of one).
 */
export async function noticeOf(
  dir: string,
  notice: boolean | string | undefined,
  repoUrl: string | undefined
): Promise<NoticeSettings | undefined> {
  if (notice === undefined || notice === false) return undefined
  const repository = repoUrl === undefined ? undefined : await repositoryRoot(dir)
  const inRepository = repository === undefined ? '' : path.relative(repository, dir).split(path.sep).join('/')
  return noticeSettings(notice, repoUrl, inRepository)
}

/** The link of the notice of the article at folder path `file`, when the settings have a folder URL. */
export function noticeLink(settings: NoticeSettings, file: string): string | undefined {
  if (settings.folderUrl === undefined) return undefined
  return `${settings.folderUrl}/${file.split('/').map(encodeURIComponent).join('/')}`
}

/** The notice block of the article at folder path `file`. */
export function noticeBlock(settings: NoticeSettings, file: string): HintBlock {
  const link = noticeLink(settings, file)
  const children: PhrasingContent[] = [
    {type: 'anchorLink', identifier: noticeAnchor},
    {type: 'text', value: link ? `${settings.text} ` : settings.text}
  ]
  if (link) children.push({type: 'link', url: link, children: [{type: 'text', value: file}]})
  const paragraph: Paragraph = {type: 'paragraph', children}
  return {type: 'hintBlock', color: 'gray', children: [paragraph]}
}

/** Whether `node` is kbsync's notice: a hint block whose first paragraph opens with the notice's anchor. */
export function isNotice(node: RootContent | undefined): boolean {
  if (node?.type !== 'hintBlock') return false
  const first = node.children[0]
  if (first?.type !== 'paragraph') return false
  const opening = first.children[0]
  return opening?.type === 'anchorLink' && opening.identifier === noticeAnchor
}

/**
 * `body` (a dialect body, title heading stripped) without the notice at its
 * top, cut out of the text by its position so that nothing else of the body
 * changes; `body` itself when it opens with no notice. `parsed`: the
 * body's tree when the caller has it (`parseKb(body)`; read, not changed).
 */
export function withoutNotice(body: string, parsed?: Root): string {
  if (!body.includes(noticeAnchor)) return body
  let tree: Root
  try {
    tree = parsed ?? parseKb(body)
  } catch {
    return body
  }
  const first = tree.children[0]
  const end = first?.position?.end.offset
  if (!isNotice(first) || end === undefined) return body
  return body.slice(end).replace(/^\s*\n/, '')
}
