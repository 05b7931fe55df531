/**
 * Which title a document gives its item: front matter `title`, else its
 * navigation entry's title, else the heading it opens with (of any level),
 * else the name of its file or folder. The heading leaves the body when it
 * is the title (the platform shows the title above the body; repeating it
 * would show it twice). Beside a front matter title only a `# Title` line
 * equal to it leaves (`isTitleLine`).
 */
import {isTitleLine, type DocumentHead} from './body.js'

/** Where a title came from. */
export type TitleSource = 'front matter' | 'navigation' | 'heading' | 'name'

/** A title chosen, and whether the document's opening heading leaves the body. */
export interface ChosenTitle {
  title: string
  from: TitleSource
  /** Whether the opening heading is the title, so it is taken out of the body. */
  dropHeading: boolean
}

/**
 * The title of an item whose body is `head` (none for a topic without a
 * body), named `name` in its folder. `headingTitles: false` keeps the
 * heading out of it (kbsync's own `_index.md`: a topic is titled by front
 * matter or folder name, its body kept whole).
 */
export function chooseTitle(
  head: DocumentHead | undefined,
  navTitle: string | undefined,
  name: string,
  headingTitles = true
): ChosenTitle {
  const heading = headingTitles ? head?.heading?.title : undefined
  // `## The \`match\` construct` under the navigation title `The match construct` is the same title.
  const pick = (title: string, from: TitleSource): ChosenTitle => ({
    title,
    from,
    dropHeading: heading !== undefined && (heading === title || plainTitle(heading) === title)
  })
  if (head?.frontMatter.title !== undefined) {
    const title = head.frontMatter.title
    return {title, from: 'front matter', dropHeading: heading !== undefined && isTitleLine(head.heading!, title)}
  }
  if (navTitle !== undefined && navTitle.trim() !== '') return pick(navTitle.trim(), 'navigation')
  if (heading !== undefined) return pick(heading, 'heading')
  return pick(name, 'name')
}

/**
 * Inline Markdown as a plain title (the platform's titles are plain text):
 * code spans, strong emphasis and backslash escapes lose their marks, so the
 * mdBook entry `` [`if let`](x.md) `` is titled `if let`.
 */
export function plainTitle(text: string): string {
  return text
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .trim()
}
