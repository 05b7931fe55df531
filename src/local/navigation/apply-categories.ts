/**
 * Applies Docusaurus' navigation to the folder layout: a folder's
 * `_category_` file gives its topic's title (`label`), its place among its
 * siblings (`position`) and its own page (`link: {type: doc, id}`); a
 * document's `sidebar_label` and `sidebar_position` give its navigation
 * title and place. Siblings with a place come first, lowest first; the
 * others follow in folder order (as Docusaurus orders them).
 */
import path from 'node:path'
import type {Diagnostic} from '../diagnostic.js'
import {documentStem} from '../file-names.js'
import type {LayoutNode, LayoutTopic} from '../layout.js'
import {numberPrefix} from '../link-targets.js'
import type {Category} from './types.js'

/** What the layout needs to know of one document for Docusaurus' navigation. */
export interface SidebarFacts {
  /** Front matter `id`. */
  id?: string
  label?: string
  position?: number
}

/** The Docusaurus navigation of a folder: its category files by folder and each document's front matter keys. */
export interface DocusaurusNavigation {
  categories: ReadonlyMap<string, {file: string; category: Category}>
  sidebarOf(file: string): SidebarFacts
}

/** Applies `navigation` to every folder topic of `layout`. */
export function applyCategories(
  layout: LayoutTopic,
  navigation: DocusaurusNavigation,
  diagnostics: Diagnostic[]
): void {
  const visit = (topic: LayoutTopic): void => {
    // A sidebar (`sidebars.js`) that ordered and titled a topic has the last word, as in Docusaurus.
    const outlined = topic.ordered === true
    const found = topic.folder !== undefined ? navigation.categories.get(topic.folder) : undefined
    if (found?.category.docId !== undefined) linkDoc(topic, found.category.docId, found.file, navigation, diagnostics)
    const own = topic.file !== undefined ? navigation.sidebarOf(topic.file) : {}
    const position = found?.category.position ?? own.position
    if (found?.category.label !== undefined && topic.navTitle === undefined) topic.label = found.category.label
    else if (own.label !== undefined) topic.navTitle ??= own.label
    if (position !== undefined) topic.position ??= position
    for (const child of topic.children) {
      if (child.kind === 'topic') visit(child)
      else {
        const facts = navigation.sidebarOf(child.file)
        if (facts.label !== undefined) child.navTitle ??= facts.label
        if (facts.position !== undefined) child.position ??= facts.position
      }
    }
    if (!outlined && topic.children.some((child) => child.position !== undefined)) {
      topic.children = byPosition(topic.children)
      topic.ordered = true
    }
  }
  visit(layout)
}

/** The Docusaurus id of a document: front matter `id`, else its name without a number prefix (`01-intro.md` is `intro`). */
function docIdOf(file: string, facts: SidebarFacts): string {
  return facts.id ?? documentStem(file).replace(numberPrefix, '')
}

/** Makes the document `id` names the topic's body (the body it had, if any, becomes its first article). */
function linkDoc(
  topic: LayoutTopic,
  id: string,
  categoryFile: string,
  navigation: DocusaurusNavigation,
  diagnostics: Diagnostic[]
): void {
  const matches = (file: string) => {
    const own = docIdOf(file, navigation.sidebarOf(file))
    return id === own || id.endsWith('/' + own)
  }
  if (topic.file !== undefined && matches(topic.file)) return
  const index = topic.children.findIndex((child) => child.kind === 'article' && matches(child.file))
  if (index === -1) {
    diagnostics.push({
      severity: 'warning',
      file: categoryFile,
      message: `\`link\` names the document \`${id}\`, which is not in the folder \`${topic.folder || '.'}\`; the folder keeps ${topic.file !== undefined ? `\`${path.posix.basename(topic.file)}\` as its page` : 'no page of its own'}`,
      hint: 'Name a document of this folder by its id (front matter `id`, else its file name)',
      rule: 'navigation-category'
    })
    return
  }
  const [chosen] = topic.children.splice(index, 1) as [LayoutNode & {kind: 'article'}]
  if (topic.file !== undefined) topic.children.unshift({kind: 'article', file: topic.file})
  topic.file = chosen.file
}

/** Siblings with a position first (lowest first, ties in folder order), then the others in folder order. */
function byPosition(children: LayoutNode[]): LayoutNode[] {
  const placed = children.filter((child) => child.position !== undefined).sort((a, b) => a.position! - b.position!)
  return [...placed, ...children.filter((child) => child.position === undefined)]
}
