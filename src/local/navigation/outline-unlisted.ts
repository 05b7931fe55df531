/**
 * Documents an outline does not list: they stay where their folders put
 * them, after the listed ones (an unlisted index page stays its folder's
 * body), and one warning counts them. So do the folders a pull kept for
 * topics left without documents; the title a pull kept one with is not counted.
 */
import path from 'node:path'
import {indexName, type LayoutArticle, type LayoutNode, type LayoutTopic} from '../layout.js'
import type {OutlineRun} from './outline-run.js'

/** Places every document no entry used below `children` (the base folder's new children); returns them, in layout order. */
export function placeUnlisted(run: OutlineRun, children: LayoutNode[]): string[] {
  const {home, used, folders} = run
  const ensure = (folder: string) => ensureFolder(run, children, folder)
  // The base folder's own body stays its body, unless the outline lists it as a page.
  if (home.file !== undefined) {
    if (used.has(home.file)) delete home.file
    else used.add(home.file)
  }
  const unlisted: string[] = []
  // An unlisted index page stays its folder's body, wherever the file lies (`x.md` beside `x/`).
  const bodyOf = new Map<string, string>()
  for (const [folder, topic] of folders) if (topic.file !== undefined) bodyOf.set(topic.file, folder)
  for (const file of run.documents) {
    if (used.has(file)) continue
    const ownFolder = bodyOf.get(file)
    if (ownFolder === undefined || !isTitleMarker(run, ownFolder, file)) unlisted.push(file)
    if (ownFolder !== undefined) {
      // ensureFolder gives a folder it makes its unused index page as body.
      const topic = ensure(ownFolder)
      if (topic.file === undefined) topic.file = file
      if (topic.file === file) {
        used.add(file)
        continue
      }
    }
    used.add(file)
    const topic = ensure(parentFolder(file))
    ;(topic === home ? children : topic.children).push({kind: 'article', file} satisfies LayoutArticle)
  }
  // A topic's folder a pull kept when its last document left (`kept-folder.ts`) lists nothing, and stays that topic.
  for (const [folder, topic] of folders) if (topic.kept === true) ensure(folder)
  return unlisted
}

/** The warning that counts the unlisted documents and names the first three; nothing when every document is listed. */
export function warnUnlisted(run: OutlineRun, unlisted: string[]): void {
  if (unlisted.length === 0) return
  const {outline} = run
  const shown = unlisted
    .slice(0, 3)
    .map((file) => `\`${file}\``)
    .join(', ')
  run.diagnostics.push({
    severity: 'warning',
    file: outline.file,
    message: `${unlisted.length} document${unlisted.length === 1 ? ' is' : 's are'} not in ${outline.source} (${shown}${unlisted.length > 3 ? ` and ${unlisted.length - 3} more` : ''}): published where ${unlisted.length === 1 ? 'its folder puts it' : 'their folders put them'}, after the listed ones`,
    hint: `List them in ${outline.source} to give them a place, or exclude them in .kbsyncignore`,
    rule: 'navigation-unlisted'
  })
}

/**
 * Whether `file`, the body of `folder`, is the title a pull kept an emptied
 * topic's folder with: an `_index.md` beside a `.gitkeep` (`kept-folders.ts`
 * of pull). No page an author left out of the outline, so it is not counted;
 * it stays the folder's body all the same.
 */
function isTitleMarker(run: OutlineRun, folder: string, file: string): boolean {
  return run.folders.get(folder)?.kept === true && path.posix.basename(file) === indexName
}

function parentFolder(file: string): string {
  return path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file)
}

/** The topic an unlisted document of `folder` goes into: one an entry made, else the folder's own, made (and placed) now. */
function ensureFolder(run: OutlineRun, children: LayoutNode[], folder: string): LayoutTopic {
  const {home, topics, used} = run
  if (folder === run.homeFolder) return home
  const existing = topics.get(folder)
  if (existing) return existing
  const original = run.folders.get(folder)!
  // A chapter whose page is the folder's index page (`guide/README.md`) stands for the folder.
  const chapter = original.file !== undefined ? topics.get(original.file) : undefined
  if (chapter) return chapter
  const topic: LayoutTopic = {kind: 'topic', key: folder, folder, children: []}
  if (original.file !== undefined && !used.has(original.file)) {
    topic.file = original.file
    used.add(original.file)
  }
  topics.set(folder, topic)
  const parent = ensureFolder(run, children, parentFolder(folder))
  ;(parent === home ? children : parent.children).push(topic)
  return topic
}
