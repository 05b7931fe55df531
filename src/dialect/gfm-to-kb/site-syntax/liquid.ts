/**
 * Liquid tags (`{% … %}`, Jekyll) made what the site shows, line by line
 * before the parse, as Jekyll runs Liquid before Markdown:
 * - `{% highlight lang %}…{% endhighlight %}` becomes a fenced code block;
 * - `{% raw %}…{% endraw %}` is left as written (its tags go in the tree
 *   pass, `templates.ts`), nothing inside it is a tag;
 * - `{% comment %}` and `{% capture %}` blocks go with their content (the
 *   site shows none of it), as do `{% assign %}` and the like;
 * - a `{% for %}` loop goes with its content: its data (`site.data`, a
 *   collection) is not here to run it; of `{% if %}`/`{% unless %}`/`{%
 *   case %}` the first branch stays, the others go;
 * - `{% link path %}` becomes the path (a link to that document);
 * - GitBook's blocks (`{% hint %}`, `{% tabs %}`, `{% embed %}`...) as `gitbook.ts` says;
 * - any other tag (`{% include %}` whose file the scan could not read,
 *   `{% post_url %}`, a plugin's) goes, with one warning per tag name.
 * Fenced code and inline code are left alone: Liquid written there is an
 * example. Each loss is counted in one message per kind and name.
 */
import {FenceTracker, splitPrefix, type SiteSource} from './lines.js'
import {captureCode, fencedLines} from './hugo/code-capture.js'
import {codeSpans, inSpan} from './hugo/code-spans.js'
import {Losses, Output, places} from './hugo/output.js'
import {linkAround, linkFromAbove} from './liquid-links.js'
import {writeGitbookTag} from './gitbook.js'

/** A Liquid tag of a line. */
interface LiquidTag {
  start: number
  end: number
  name: string
  args: string
}

/** A block being left out (`skip`) or a conditional whose later branches go. */
interface Block {
  name: string
  /** Whether the content is left out now. */
  skip: boolean
  /** Of a conditional: whether its first branch is over. */
  branched?: boolean
}

const silent = new Set(['assign', 'increment', 'decrement', 'cycle', 'break', 'continue', 'echo', 'liquid'])
const skipped = new Set(['comment', 'capture', 'for', 'tablerow'])
const conditional = new Set(['if', 'unless', 'case'])
const branches = new Set(['else', 'elsif', 'when'])

const endRaw = /\{%-?[ \t]*endraw[ \t]*-?%\}/

/** The content of a raw span on one line: inline code when it holds template syntax (shown as written), else itself. */
function rawSpan(content: string): string {
  if (!/\{[{%]/.test(content)) return content
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks} ${content} ${ticks}`
}

// An output of Jekyll's data: `{{ site.x }}`, `{{ page.x }}`, or any output through a filter (`| relative_url`).
const jekyllOutput = /^(?:site|page|include|layout|paginator|jekyll)\.|^content$|\|/
const siteAddress = /^site\.(?:baseurl|url)$/
const urlFilter = /^(['"])([^'"]*)\1[ \t]*\|[ \t]*(?:relative_url|absolute_url)$/

/** Whether `markdown` may hold a Liquid tag, or an output of Jekyll's data. */
export function mayHoldLiquid(markdown: string): boolean {
  return markdown.includes('{%') || /\{\{-?[ \t]*(?:site|page)\.|\|[ \t]*(?:relative|absolute)_url/.test(markdown)
}

/**
 * The outputs `{{ … }}` of a line outside inline code: `{{ 'path' |
 * relative_url }}` (and `absolute_url`) is the path, an output of Jekyll's
 * data the scan could not fill in goes (counted); others stay.
 */
function liquidOutputs(line: string, state: LineState): string {
  // Inline code and `{% raw %}…{% endraw %}` show what they hold as written.
  const spans = [...codeSpans(line), ...rawSpans(line)].sort((a, b) => a[0] - b[0])
  const skipping = state.stack.some((block) => block.skip)
  let result = ''
  let last = 0
  let at = line.indexOf('{{')
  while (at !== -1) {
    const end = line.indexOf('}}', at + 2)
    if (end === -1) break
    const inner = line.slice(at + 2, end)
    const expression = inner.replace(/^-/, '').replace(/-$/, '').trim()
    const url = urlFilter.exec(expression)
    if (!/^[#<%]/.test(inner) && !inSpan(spans, at) && (url || jekyllOutput.test(expression))) {
      // An unknown value that starts a link's address leaves no address: the link is its text. The site's own
      // address (`site.baseurl`, `site.url`) leaves a site path, which links resolve.
      const link =
        url || siteAddress.test(expression)
          ? undefined
          : (linkAround(line, at, end + 2, last) ?? linkFromAbove(line, at, end + 2, last, state.out.lines))
      // An unknown value that is all an emphasis holds (`**{{ site.x }}**`) takes the marks with it: `****` is no text.
      const marks = link || url ? 0 : emphasisAround(line, last, at, end + 2)
      result += link ? line.slice(last, link.open) + link.text : line.slice(last, at - marks) + (url ? url[2] : '')
      last = link ? link.close : end + 2 + marks
      if (!url && !skipping)
        state.losses.add('kb-liquid-output', 'output', state.out.author, at + 1, (count) => {
          return `The Liquid output \`{{ ${expression} }}\` (${places(count)}) is left out: its value is neither in the front matter nor in \`_config.yml\`, and kbsync does not run Liquid. Write the value.`
        })
    }
    at = line.indexOf('{{', end + 2)
  }
  return result + line.slice(last)
}

/** How many emphasis marks (`*`, `_`, up to three) close right after `after` what opens right before `at` (0 for none). */
function emphasisAround(line: string, from: number, at: number, after: number): number {
  const before = /(?:\*{1,3}|_{1,3})$/.exec(line.slice(Math.max(from, at - 3), at))?.[0] ?? ''
  return before !== '' && line.startsWith(before, after) && line[after + before.length] !== before[0]
    ? before.length
    : 0
}

/** Rewrites the Liquid tags of `site` (see the module comment). */
export function rewriteLiquid(site: SiteSource): void {
  const out = new Output()
  const losses = new Losses()
  const fences = new FenceTracker()
  const stack: Block[] = []
  let raw = false
  for (let index = 0; index < site.lines.length; index++) {
    const line = site.lines[index]!
    const [prefix, rest] = splitPrefix(line)
    out.startLine(site.origin[index]!, prefix)
    const skipping = stack.some((block) => block.skip)
    const code = fences.isCode(rest)
    if (raw || code || (!line.includes('{%') && !line.includes('{{'))) {
      // Within `{% raw %}` nothing is a tag; a fence's lines are code, where a raw tag is an example too.
      if (raw && endRaw.test(line)) raw = false
      if (!skipping) out.push(line)
      continue
    }
    const state = {out, losses, stack, index, lines: site.lines}
    const next = rewriteLine(state, line)
    raw = next.raw
    index = next.index
  }
  out.endLine()
  losses.report(site)
  site.lines = out.lines
  site.origin = out.origin
}

interface LineState {
  out: Output
  losses: Losses
  stack: Block[]
  index: number
  lines: readonly string[]
}

/** Writes one line with its tags handled; answers whether a raw block stays open, and the last line used. */
function rewriteLine(state: LineState, line: string): {raw: boolean; index: number} {
  const {out, stack} = state
  let text = line.includes('{{') ? liquidOutputs(line, state) : line
  for (;;) {
    const spans = codeSpans(text)
    let last = 0
    let continued: string | undefined
    for (const tag of liquidTags(text)) {
      if (inSpan(spans, tag.start)) continue
      if (!stack.some((block) => block.skip)) out.add(text.slice(last, tag.start))
      last = tag.end
      if (tag.name === 'raw') {
        const end = endRaw.exec(text.slice(tag.end))
        // Kept with its tags (the tree pass leaves them out) and shown as written: Liquid there is an example.
        if (!end) {
          out.add(text.slice(tag.start))
          out.endLine()
          return {raw: true, index: state.index}
        }
        last = tag.end + end.index + end[0].length
        out.add(rawSpan(text.slice(tag.end, tag.end + end.index)))
        continue
      }
      if (tag.name === 'highlight' && !stack.some((block) => block.skip)) {
        const captured = captureCode(state.lines, state.index, text.slice(tag.end), /\{%-?\s*endhighlight\s*-?%\}/)
        out.blank()
        for (const code of fencedLines(captured.code, tag.args.trim().split(/\s+/)[0] ?? '', '')) out.block(code)
        out.blank()
        state.index = captured.endLine
        continued = captured.after
        break
      }
      handleTag(state, tag)
    }
    if (continued === undefined) {
      if (!stack.some((block) => block.skip)) out.add(text.slice(last))
      out.endLine()
      return {raw: false, index: state.index}
    }
    text = continued
  }
}

/** One tag other than `raw` and `highlight`. */
function handleTag(state: LineState, tag: LiquidTag): void {
  const {out, stack} = state
  const skipping = stack.some((block) => block.skip)
  if (!skipping && writeGitbookTag(out, tag, state.lines, state.index)) return
  const ending = /^end(\w+)$/.exec(tag.name)?.[1]
  if (ending) {
    const at = stack.findLastIndex((block) => block.name === ending)
    if (at !== -1) stack.length = at
    return
  }
  if (skipped.has(tag.name)) {
    stack.push({name: tag.name, skip: true})
    if (!skipping && tag.name !== 'comment' && tag.name !== 'capture') lose(state, tag, 'loop')
    return
  }
  if (conditional.has(tag.name)) {
    stack.push({name: tag.name, skip: false, branched: tag.name === 'case'})
    if (!skipping) lose(state, tag, 'condition')
    return
  }
  if (branches.has(tag.name)) {
    const block = stack[stack.length - 1]
    if (block?.branched !== undefined) {
      // The first branch stays (of `case`, the first `when`); the rest go.
      if (tag.name === 'when' && block.branched && !block.skip) block.branched = false
      else block.skip = true
    }
    return
  }
  if (skipping || silent.has(tag.name)) return
  if (tag.name === 'link') {
    out.add(tag.args.trim())
    return
  }
  lose(state, tag, 'tag')
}

/** Counts a tag whose output is lost. */
function lose(state: LineState, tag: LiquidTag, kind: 'loop' | 'condition' | 'tag'): void {
  const {out, losses} = state
  const written = `{% ${tag.name}${tag.args.trimEnd()} %}`
  const reasons = {
    loop: (count: number) =>
      `A Liquid loop (${places(count)}, \`${written}\`) is left out with its content: kbsync does not run Liquid, and the data it walks is not here. Write the list or table it makes.`,
    condition: (count: number) =>
      `A Liquid condition (${places(count)}, \`${written}\`): the first branch is kept, the others are left out, as kbsync does not run Liquid. Keep the text that applies.`,
    tag: (count: number) =>
      `The Liquid tag \`${written}\` (${places(count)}) is left out: kbsync does not run Liquid${tag.name.startsWith('include') ? ', and the included file was not found' : ''}. Write the text it stands for.`
  }
  const rule = kind === 'tag' ? 'kb-liquid-tag' : kind === 'loop' ? 'kb-liquid-loop' : 'kb-liquid-condition'
  losses.add(rule, kind === 'tag' ? tag.name : kind, out.author, tag.start + 1, reasons[kind])
}

/**
 * The places of a line from `{% raw %}` to its `{% endraw %}` (or the line's
 * end). Inside a raw span no tag is one, a `{% raw %}` neither (Jekyll's
 * `{% raw %}`{% raw %}`{% endraw %}` shows the tag): the first `{% endraw %}` closes it.
 */
function rawSpans(line: string): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  let open = false
  for (const tag of liquidTags(line)) {
    if (!open && tag.name === 'raw') {
      spans.push([tag.start, line.length])
      open = true
    } else if (open && tag.name === 'endraw') {
      spans[spans.length - 1]![1] = tag.end
      open = false
    }
  }
  return spans
}

/** The Liquid tags of a line, in order (`{%` without its `%}` on the line is none). */
function liquidTags(line: string): LiquidTag[] {
  const tags: LiquidTag[] = []
  let at = line.indexOf('{%')
  while (at !== -1) {
    const end = line.indexOf('%}', at + 2)
    if (end === -1) break
    const inner = line
      .slice(at + 2, end)
      .replace(/^-/, '')
      .replace(/-$/, '')
    const name = /^\s*(\w+(?:-\w+)*)/.exec(inner)
    if (name) tags.push({start: at, end: end + 2, name: name[1]!.toLowerCase(), args: inner.slice(name[0].length)})
    at = line.indexOf('{%', end + 2)
  }
  return tags
}
