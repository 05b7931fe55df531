/**
 * Cross-references of mkdocs-autorefs (with mkdocstrings): `[File][mkdocs.structure.files.File]`
 * and `` [`mkdocs.plugins.CombinedEvent`][] `` name a Python object, and the
 * site links them to the page documenting it. No definition follows them,
 * so Markdown alone shows the brackets as text. kbsync has no page for the
 * object: the reference becomes its text, with one warning per document.
 * A label a definition of the document names is a link like any other.
 */
import {CodeLines} from '../code-lines.js'
import {codeSpans, inSpan} from '../hugo/code-spans.js'
import type {SiteSource} from '../lines.js'

// An identifier path: two or more names joined by dots (`a.b`, `mkdocs.structure.files.File`).
const objectPath = String.raw`[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+`
// `[text][a.b]`, or `` [`a.b`][] ``: the text (one level of brackets inside), then the identifier or nothing.
// The text's length is bounded, so a line of many `[` costs linear time (each start reads at most that much).
const reference = new RegExp(String.raw`\[((?:[^\[\]\n]|\[[^\[\]\n]{0,200}\]){1,200})\]\[(${objectPath})?\]`, 'g')
const codePath = new RegExp(String.raw`^\x60(${objectPath})\x60$`)
const definitionLabel = /^[ \t>]{0,3}\[([^\]\n]+)\]:/

/** Whether `markdown` may hold a cross-reference (the cheap test before the pass). */
export function mayHoldAutorefs(markdown: string): boolean {
  return /\]\[[A-Za-z_]\w*\.|`\]\[\]/.test(markdown)
}

/** Rewrites the cross-references of `site` to their text (see the module comment). */
export function rewriteAutorefs(site: SiteSource): void {
  const defined = new Set<string>()
  for (const line of site.lines) {
    const label = definitionLabel.exec(line)?.[1]
    if (label) defined.add(normalise(label))
  }
  const code = new CodeLines()
  let first: {line: number; column: number; written: string} | undefined
  let count = 0
  site.lines.forEach((line, index) => {
    if (code.isCode(line) || !line.includes('][')) return
    const spans = codeSpans(line)
    site.lines[index] = line.replace(reference, (written, text: string, path: string | undefined, at: number) => {
      const label = path ?? codePath.exec(text)?.[1]
      if (!label || inSpan(spans, at) || defined.has(normalise(path ?? text))) return written
      first ??= {line: site.origin[index]!, column: at + 1, written}
      count++
      return text
    })
  })
  if (!first) return
  site.messages.push({
    line: first.line,
    column: first.column,
    ruleId: 'kb-autoref',
    reason: `\`${first.written}\` (${count === 1 ? 'the only one' : `and ${count - 1} more`}) is a cross-reference of mkdocs-autorefs: the site links it to the page documenting that object, which kbsync does not build. Its text is kept without the link. Write a link to the page, or leave it as text.`
  })
}

/** A label as CommonMark matches it: case and runs of white space do not count. */
function normalise(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase()
}
