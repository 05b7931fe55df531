/**
 * What a scanned topic's key says about where its documents are: a folder
 * (its own folder), a chapter's file (an outline made the page a topic), or
 * a navigation section (`.nav/`: no file, no folder of its own). New
 * children of a topic go to its home folder: its own folder, else the folder
 * most of its documents share.
 */
import path from 'node:path'
import type {LocalNode, LocalTopic} from '../../local/index.js'

/** How a topic's key relates to the disk. */
export type TopicKeyKind = 'folder' | 'file' | 'section'

/** Whether `key` is a navigation section's (`<folder>/.nav/<titles>`), which names nothing on disk. */
export function isSectionKey(key: string): boolean {
  return /(?:^|\/)\.nav(?:\/|$)/.test(key)
}

/** What the key of a scanned topic names on disk. */
export function topicKeyKind(node: LocalTopic): TopicKeyKind {
  if (isSectionKey(node.path)) return 'section'
  return node.file !== undefined && node.file === node.path ? 'file' : 'folder'
}

/** Parent folder of a repo-relative path (`''` at the top). */
export function folderOf(docPath: string): string {
  const parent = path.posix.dirname(docPath)
  return parent === '.' ? '' : parent
}

/** The folder a child's document sits in, as the vote of `homeFolderOf` counts it (none for a section without files). */
function placeOf(child: LocalNode): string | undefined {
  return child.kind === 'topic' && topicKeyKind(child) === 'section' ? undefined : folderOf(child.path)
}

/** The folder the most of `places` name (the first of them on a tie), if any. */
function mostCommon(places: Array<string | undefined>): string | undefined {
  const counts = new Map<string, number>()
  let best: string | undefined
  for (const place of places) {
    if (place === undefined) continue
    const count = (counts.get(place) ?? 0) + 1
    counts.set(place, count)
    if (best === undefined || count > counts.get(best)!) best = place
  }
  return best
}

/**
 * The folder new children of the scanned topic `node` go to: a folder
 * topic's own folder; else the folder most of its children's documents
 * share; else, for a chapter, the folder named like its file beside it
 * (mdBook's habit), for a section the folder its `.nav/` key starts from.
 */
export function homeFolderOf(node: LocalTopic): string {
  const kind = topicKeyKind(node)
  if (kind === 'folder') return node.path
  const voted = mostCommon(node.children.map(placeOf))
  if (voted !== undefined) return voted
  if (kind === 'file') {
    const stem = path.posix.basename(node.path).replace(/\.mdx?$/i, '')
    return folderOf(node.path) === '' ? stem : `${folderOf(node.path)}/${stem}`
  }
  return node.path.replace(/(?:^|\/)\.nav(?:\/.*)?$/, '')
}
