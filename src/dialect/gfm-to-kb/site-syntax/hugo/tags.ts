/**
 * What each family of shortcodes writes when it opens and when it closes
 * (see `families.ts`): dialect tags on lines of their own for blocks, a
 * bold label over a tab, a fenced block for code (a Docsy `card` with
 * `code=true` too), an image, a video, a link target in place.
 */
import {closeTag as dialectClose, openTag as dialectOpen, type SiteSource} from '../lines.js'
import type {FenceTracker} from '../lines.js'
import {captureCode, fencedLines} from './code-capture.js'
import {argument, blockTitle, hintColor, type Family} from './families.js'
import {places, type Losses, type Output} from './output.js'
import type {Shortcode} from './shortcodes.js'

/** A shortcode whose closing tag is still to come. */
export interface Open {
  name: string
  family: Family | 'unknown'
  /** The author's line it opened on. */
  line: number
  tag: Shortcode
  /** Of a tab set: how many tabs it holds so far (Hextra's labels come from `items` by position). */
  tabs?: number
}

/** The state of the pass over one document. */
export interface Pass {
  site: SiteSource
  out: Output
  stack: Open[]
  /** Names some closing tag of the document names: their opening tags open pairs. */
  paired: ReadonlySet<string>
  losses: Losses
  fences: FenceTracker
  /** Characters that joining lines of tags written over several lines may still read (bounded work). */
  joinBudget: number
}

/** Where the pass goes on after a tag took lines as code: the rest of the line at `index`. */
export type Continuation = {text: string; index: number} | undefined

/** Writes what the opening (or lone) tag `tag` of `family` stands for; `after` is the rest of its line. */
export function openTag(pass: Pass, tag: Shortcode, family: Family, after: string, index: number): Continuation {
  const {out} = pass
  const paired = !tag.selfClosing && pass.paired.has(tag.name)
  const open = (): void => {
    pass.stack.push({name: tag.name, family, line: out.author, tag})
  }
  switch (family) {
    case 'hint':
    case 'details': {
      if (!paired) return undefined
      const kind = family === 'details' ? 'details' : 'hintBlock'
      out.blank()
      out.block(dialectOpen(kind, hintColor(tag)))
      const title = blockTitle(tag) ?? (kind === 'details' ? 'Details' : undefined)
      if (!pass.site.titles.has(out.author)) pass.site.titles.set(out.author, {kind, ...(title ? {title} : {})})
      open()
      return undefined
    }
    case 'tabs':
    case 'container':
    case 'comment':
      if (!paired) return undefined
      if (family === 'container') label(out, argument(tag, ['header', 'title', 'heading']))
      else out.blank()
      // Docsy's `card` with `code=true` shows its content as code in its `lang` (Hugo's `highlight`), not Markdown.
      if (family === 'container' && tag.named.code === 'true')
        return code(pass, tag, tag.named.lang ?? '', after.trimStart(), index)
      open()
      return undefined
    case 'tab':
      return openTab(pass, tag, paired, after, index)
    case 'code':
      if (!paired) return undefined
      return code(pass, tag, argument(tag, ['lang', 'language'], 0) ?? '', after, index)
    default:
      return inline(pass, tag, family, paired)
  }
}

/** Writes what closes the block `open` opened. */
export function closeTag(pass: Pass, open: Open): void {
  const {out} = pass
  if (open.family === 'hint' || open.family === 'details') {
    out.block(dialectClose(open.family === 'details' ? 'details' : 'hintBlock'))
    out.blank()
  } else if (open.family !== 'unknown' && open.family !== 'comment') out.blank()
}

/** A bold line for `text` between blank lines (nothing but the blank line without a text). */
function label(out: Output, text: string | undefined): void {
  out.blank()
  if (!text) return
  const words = text.replace(/\*\*/g, '').replace(/\s+/g, ' ').trim()
  if (words !== '') out.block(`**${words}**`)
  out.blank()
}

/**
 * A tab: its label in bold over its content. A Docsy tab in a `tabpane`
 * written `{{< tab >}}` holds code in its `lang` (or the pane's) unless it
 * or the pane says `text=true`; other tabs hold Markdown.
 */
function openTab(pass: Pass, tag: Shortcode, paired: boolean, after: string, index: number): Continuation {
  const set = pass.stack.findLast((open) => open.family === 'tabs')
  const position = set ? (set.tabs = (set.tabs ?? 0) + 1) - 1 : 0
  const items = set?.tag.named.items?.split(',') ?? []
  const text = argument(tag, ['header', 'title', 'name', 'label'], 0) ?? items[position]?.trim()
  label(pass.out, text)
  if (!paired) return undefined
  const pane = set?.tag
  const markdown = tag.delimiter === '%' || pane?.name !== 'tabpane' || (tag.named.text ?? pane.named.text) === 'true'
  if (markdown) {
    pass.stack.push({name: tag.name, family: 'tab', line: pass.out.author, tag})
    return undefined
  }
  const language =
    tag.named.lang ?? pane.named.lang ?? (pane.named.langequalsheader === 'true' && text ? text : '') ?? ''
  return code(pass, tag, language, after, index)
}

/** The lines up to the tag's closing tag as a fenced code block in `language`. */
function code(pass: Pass, tag: Shortcode, language: string, after: string, index: number): Continuation {
  const {out, site} = pass
  const name = tag.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const closing = new RegExp(`\\{\\{[<%]-?[ \\t]*\\/[ \\t]*${name}[ \\t]*-?[>%]\\}\\}`, 'i')
  const captured = captureCode(site.lines, index, after, closing)
  out.blank()
  for (const line of fencedLines(captured.code, language, '')) out.block(line)
  out.blank()
  return {text: captured.after, index: captured.endLine}
}

/** The tags that stand for something in place: a link target, a video, a figure, a parameter or a file. */
function inline(pass: Pass, tag: Shortcode, family: Family, paired: boolean): Continuation {
  const {out} = pass
  const column = tag.start + 1
  if (family === 'ref') {
    out.add(argument(tag, ['path', 'page'], 0) ?? '')
  } else if (family === 'video') {
    const id = argument(tag, ['id', 'src'], 0)
    if (!id) return undefined
    const url = /^https?:/i.test(id)
      ? id
      : tag.name === 'vimeo'
        ? `https://vimeo.com/${id}`
        : `https://www.youtube.com/watch?v=${id}`
    out.blank()
    out.block(`<video src="${url.replace(/["<>\s]/g, '')}"></video>`)
    out.blank()
  } else if (family === 'figure') {
    figure(pass, tag, paired)
  } else {
    const what = family === 'param' ? 'parameter' : 'file'
    const target = argument(tag, family === 'param' ? ['name'] : ['file', 'path'], 0) ?? ''
    pass.losses.add(`kb-shortcode-${what}`, tag.name, out.author, column, (count) =>
      family === 'param'
        ? `The parameter \`${target}\` (${places(count)}) is neither in the page's front matter nor in the site's configuration (hugo.toml, config.*); it is left out. Define it, or write its value.`
        : `The file \`${target}\` of \`${tag.name}\` (${places(count)}) could not be read here; it is left out. Keep the file inside the repository, or paste its text.`
    )
  }
  return undefined
}

/** `figure` (src, alt, title, caption, link) and Docsy's `imgproc` (a resource of the page bundle, its content the caption). */
function figure(pass: Pass, tag: Shortcode, paired: boolean): void {
  const {out} = pass
  const source = argument(tag, ['src'], 0)
  if (!source) return
  const alt = (argument(tag, ['alt']) ?? '').replace(/[[\]\\]/g, '\\$&')
  const title = argument(tag, ['title'])
  const destination = /[\s()<>]/.test(source) ? `<${source.replace(/[<>]/g, '')}>` : source
  const image = `![${alt}](${destination}${title ? ` "${title.replace(/"/g, '\\"')}"` : ''})`
  const link = argument(tag, ['link'])
  out.blank()
  out.block(link ? `[${image}](${link.replace(/[\s()]/g, encodeURIComponent)})` : image)
  const caption = argument(tag, ['caption'])
  if (caption) {
    out.blank()
    out.block(`*${caption}*`)
  }
  out.blank()
  if (paired) pass.stack.push({name: tag.name, family: 'figure', line: out.author, tag})
}
