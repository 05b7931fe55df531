/**
 * Checks of the whole desired tree that no single file can see: two
 * children of one topic with the same title (the platform would hold two
 * items no one can tell apart, and matching by title would be ambiguous),
 * unless every one of them is pinned by a `kb_id`; and one `kb_id` pinned by
 * two files. Real trees hold such titles (copied front matter, generated
 * pages): `disambiguateTitles` first tells them apart by file name, so only
 * the ones it cannot tell apart remain errors.
 */
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import {documentStem} from './file-names.js'
import type {LocalNode, LocalTopic} from './types.js'

/** Titles that read the same: trimmed, NFC, lower case. */
function titleKey(title: string): string {
  return title.trim().normalize('NFC').toLowerCase()
}

/**
 * Pushes duplicate-title and duplicate-id errors of the tree under `root`,
 * each topic's children in order, a topic's whole subtree right after its
 * own check (so the first of two pinned ids is the first in that order).
 * Iterative: a folder chain or a navigation may nest topics thousands deep.
 */
export function validateTree(root: LocalTopic, diagnostics: Diagnostic[]): void {
  const ids = new Map<string, LocalNode>()
  const frames = [{topic: root, titles: titlesOf(root), next: 0}]
  while (frames.length > 0) {
    const frame = frames.at(-1)!
    const child = frame.topic.children[frame.next++]
    if (child === undefined) {
      frames.pop()
      continue
    }
    checkTitle(child, frame.titles.get(titleKey(child.title))!, diagnostics)
    checkKbId(child, ids, diagnostics)
    if (child.kind === 'topic') frames.push({topic: child, titles: titlesOf(child), next: 0})
  }
}

/** The children of `topic` by title key, in order. */
function titlesOf(topic: LocalTopic): Map<string, LocalNode[]> {
  const titles = new Map<string, LocalNode[]>()
  for (const child of topic.children) {
    const key = titleKey(child.title)
    const same = titles.get(key)
    if (same) same.push(child)
    else titles.set(key, [child])
  }
  return titles
}

/** A `duplicate-title` error when `child` is not the first of `same` (its namesakes) and they are not all pinned. */
function checkTitle(child: LocalNode, same: LocalNode[], diagnostics: Diagnostic[]): void {
  const first = same[0]!
  // The platform allows equal titles; when every one is pinned by kb_id, matching never needs the title.
  if (first === child || same.every((node) => node.kbId)) return
  diagnostics.push({
    severity: 'error',
    file: fileOf(child),
    line: titleLineOf(child),
    message: `Title "${child.title}" is already used by \`${fileOf(first)}\` in the same topic`,
    hint: 'Give one of them another title (front matter `title`, first heading or file name), or pin each of them with a `kb_id`',
    rule: 'duplicate-title'
  })
}

/** A `duplicate-kb-id` error when `child` pins an id an earlier node pinned; else records its id. */
function checkKbId(child: LocalNode, ids: Map<string, LocalNode>, diagnostics: Diagnostic[]): void {
  if (!child.kbId) return
  const other = ids.get(child.kbId)
  if (!other) {
    ids.set(child.kbId, child)
    return
  }
  diagnostics.push({
    severity: 'error',
    file: fileOf(child),
    line: 1,
    message: `kb_id ${child.kbId} is already pinned by \`${fileOf(other)}\``,
    hint: 'A copied file keeps its kb_id: remove it from the copy',
    rule: 'duplicate-kb-id'
  })
}

/**
 * Gives children of one topic that share a title (and are not all pinned by
 * `kb_id`) distinct titles: the first keeps it, each other one gets its name
 * added, `Code of Conduct (conduct)`, else its path below the topic. One
 * warning per shared title. A title still shared afterwards is left for
 * `validateTree` to refuse.
 */
export function disambiguateTitles(root: LocalTopic, diagnostics: Diagnostic[]): void {
  // Each topic before its child topics, in order, as the recursion went; iterative for chains thousands deep.
  const stack = [root]
  for (let topic = stack.pop(); topic; topic = stack.pop()) {
    disambiguateChildren(topic, diagnostics)
    for (let at = topic.children.length - 1; at >= 0; at--) {
      const child = topic.children[at]!
      if (child.kind === 'topic') stack.push(child)
    }
  }
}

/** The first few of `renamed`, then how many more: thousands of pages of one title (`index.md` bundles all "Overview") make one line, not a flood. */
function namedSome(renamed: readonly string[], shown = 5): string {
  if (renamed.length <= shown) return renamed.join(', ')
  return `${renamed.slice(0, shown).join(', ')} and ${(renamed.length - shown).toLocaleString('en-US')} more the same way (its file name or path in parentheses)`
}

/** `disambiguateTitles` for the children of one topic. */
function disambiguateChildren(topic: LocalTopic, diagnostics: Diagnostic[]): void {
  const groups = titlesOf(topic)
  const taken = new Set(groups.keys())
  for (const group of groups.values()) {
    if (group.length < 2 || group.every((node) => node.kbId)) continue
    const [first, ...others] = group
    const renamed: string[] = []
    for (const node of others) {
      // A name the first one has too (`Café.md` in NFC and in NFD: one file on macOS) tells nothing apart.
      const names = [nameOf(node), pathOf(node)].filter((name) => name !== nameOf(first!) && name !== pathOf(first!))
      const title = names.map((name) => `${node.title} (${name})`).find((candidate) => !taken.has(titleKey(candidate)))
      if (title === undefined) continue
      taken.add(titleKey(title))
      renamed.push(`\`${fileOf(node)}\` as "${title}"`)
      node.title = title
    }
    if (renamed.length === 0) continue
    diagnostics.push({
      severity: 'warning',
      file: fileOf(others[0]!),
      line: titleLineOf(others[0]!),
      message: `Title "${first!.title}" is also the title of \`${fileOf(first!)}\` in the same topic; published ${namedSome(renamed)} to tell them apart`,
      hint: 'Give each its own title (front matter `title`, first heading or file name) to choose the titles yourself',
      rule: 'title-disambiguated'
    })
  }
}

/** The name that tells a node apart: its file's or folder's name. */
function nameOf(node: LocalNode): string {
  const folderName =
    node.kind === 'topic' && (node.file === undefined || path.posix.basename(node.file) === '_index.md')
  return folderName ? path.posix.basename(node.path).normalize('NFC') : documentStem(node.file ?? node.path)
}

/** The node's path without extension, for names that repeat (`a/intro`, `b/intro`, placed side by side by a navigation). */
function pathOf(node: LocalNode): string {
  return (node.file ?? node.path).replace(/\.mdx?$/i, '').normalize('NFC')
}

function fileOf(node: LocalNode): string {
  return node.file ?? node.navigation?.file ?? node.path
}

function titleLineOf(node: LocalNode): number {
  if (node.kind === 'article' && node.titleLine !== undefined) return node.titleLine
  return node.file === undefined && node.navigation ? node.navigation.line : 1
}
