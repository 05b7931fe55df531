/**
 * A title changed on the platform, written where the file keeps its title:
 * the front matter's `title` line (YAML `title:` or TOML `title =`), or the
 * heading the title came from. Only that line changes; every other byte of
 * the front matter and the body stays. A title a navigation entry gives is
 * the entry's (only a heading mirroring it follows); one the file name gives
 * is not the file's to change.
 */
import {stringify} from 'yaml'
import {frontMatterFence} from '../../../local/index.js'

/** Where the file's title is, as the scan found it. */
export interface TitlePlace {
  from: 'front matter' | 'navigation' | 'heading' | 'name' | undefined
  /** 1-based line of the title heading, when the title came from one. */
  headingLine?: number | undefined
}

const atxHeading = /^( {0,3}#{1,6}[ \t]+)(.*?)((?:[ \t]+#+)?[ \t]*(?:\{[:#.][^}]*\})?[ \t]*)$/
const setextText = /^( {0,3})(.*?)([ \t]*(?:\{[:#.][^}]*\})?[ \t]*)$/
const yamlTitle = /^title[ \t]*:/
const tomlTitle = /^title[ \t]*=/

/**
 * `text` (LF line ends) with its title made `title`, or undefined when the
 * title is not the file's own (navigation, name) or its line is not found.
 */
export function patchTitle(text: string, place: TitlePlace, title: string): string | undefined {
  const lines = text.split('\n')
  if (place.from === 'front matter') {
    // Beside a front matter title, a `# Title` line equal to it leaves the body: it must stay equal to it.
    if (place.headingLine !== undefined) patchHeading(lines, place.headingLine, title)
    const index = frontMatterTitleLine(lines, Math.max(0, frontMatterFence(text)))
    if (index === undefined) return undefined
    const toml = tomlTitle.test(lines[index]!)
    const value = toml ? JSON.stringify(title) : stringify(title, {lineWidth: 0}).trimEnd()
    // A folded or block value goes on over the indented lines after the key: they go with it.
    let end = index + 1
    while (end < lines.length && /^[ \t]+\S/.test(lines[end]!) && !toml) end++
    lines.splice(index, end - index, `title${toml ? ' = ' : ': '}${value}`)
    return lines.join('\n')
  }
  if (place.from === 'heading' && place.headingLine !== undefined && patchHeading(lines, place.headingLine, title))
    return lines.join('\n')
  // The navigation entry holds the title (the pull edits it there); a first heading that mirrored it left the body
  // for being equal to it, and must stay equal, or the next push would publish it as a line of the body.
  if (place.from === 'navigation' && place.headingLine !== undefined && patchHeading(lines, place.headingLine, title))
    return lines.join('\n')
  return undefined
}

/** Gives the heading at `line` (1-based; ATX, or a setext heading's text line) the text `title`; false when it is none. */
function patchHeading(lines: string[], line: number, title: string): boolean {
  const text = lines[line - 1]
  const heading = text === undefined ? null : (atxHeading.exec(text) ?? setextText.exec(text))
  if (!heading) return false
  lines[line - 1] = heading[1]! + title + heading[3]!
  return true
}

/** The 0-based line of the top-level `title` key of the front matter opened at the line `first` of `lines`, if any. */
function frontMatterTitleLine(lines: readonly string[], first: number): number | undefined {
  const fence = lines[first]?.trimEnd()
  if (fence !== '---' && fence !== '+++') return undefined
  for (let index = first + 1; index < lines.length; index++) {
    const line = lines[index]!
    if (line.trimEnd() === fence) return undefined
    if (fence === '---' ? yamlTitle.test(line) : tomlTitle.test(line)) return index
  }
  return undefined
}
