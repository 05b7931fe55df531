/**
 * Hugo's `readfile` shortcode (Docsy's, and the `include` of Hugo Book and
 * others), resolved when a folder is scanned, like mdBook's includes:
 * `{{% readfile "part.md" %}}` is replaced by the file's text (Markdown),
 * `{{< readfile file="config.yaml" code="true" lang="yaml" >}}` by a fenced
 * code block of it. A path is relative to the page's folder; one starting
 * with `/` to the synced folder (a site's `content/`), else the repository.
 * The file is read through the trust rule of published files
 * (`PublishSource`, as includes are); a file refused or missing leaves the
 * tag to the conversion, which leaves it out with a warning. An included
 * file's own shortcodes are converted with the page. At most
 * `maxReadfiles` per document, and `maxBytes` read in all.
 */
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import type {PublishSource} from '../trust/publishable.js'
import {ReadRefusedError, utf8Text} from '../trust/read.js'
import {findShortcodes, type Shortcode} from '../dialect/gfm-to-kb/site-syntax/hugo/shortcodes.js'
import {fencedLines} from '../dialect/gfm-to-kb/site-syntax/hugo/code-capture.js'

const maxReadfiles = 100
const maxBytes = 4 * 1048576
const names = new Set(['readfile', 'include'])

/** A body with its `readfile` tags replaced, and the author's line of each of its lines when any was. */
export interface ReadfileResult {
  body: string
  lineOf?: number[]
  diagnostics: Diagnostic[]
}

/** Replaces the `readfile` tags of `body` (of `file`, relative to `root`); see the module comment. */
export async function expandReadfiles(
  body: string,
  file: string,
  context: {root: string; top: string; source: PublishSource}
): Promise<ReadfileResult> {
  if (!/\{\{[<%]-?[ \t]*(?:readfile|include)[ \t]/.test(body)) return {body, diagnostics: []}
  const lines: string[] = []
  const lineOf: number[] = []
  const budget = {files: maxReadfiles, bytes: maxBytes}
  let changed = false
  const source = body.split('\n')
  for (let index = 0; index < source.length; index++) {
    const line = source[index]!
    const tags = line.includes('{{') ? findShortcodes(line).filter((tag) => names.has(tag.name) && !tag.escaped) : []
    let text = ''
    let last = 0
    for (const tag of tags) {
      const content = await readTag(tag, file, context, budget, /^[ \t]*/.exec(line)![0])
      if (content === undefined) continue
      text += line.slice(last, tag.start) + content
      last = tag.end
      changed = true
    }
    text += line.slice(last)
    for (const part of text.split('\n')) {
      lines.push(part)
      lineOf.push(index + 1)
    }
  }
  return changed ? {body: lines.join('\n'), lineOf, diagnostics: []} : {body, diagnostics: []}
}

/** The text a tag stands for, or undefined when its file cannot be read (the tag stays for the conversion to report). */
async function readTag(
  tag: Shortcode,
  file: string,
  context: {root: string; top: string; source: PublishSource},
  budget: {files: number; bytes: number},
  indent: string
): Promise<string | undefined> {
  const name = tag.named.file ?? tag.named.path ?? tag.positional[0]
  if (!name || --budget.files < 0) return undefined
  const candidates = name.startsWith('/')
    ? [path.join(context.root, name), path.join(context.top, name)]
    : [path.join(context.root, path.dirname(file), name)]
  for (const candidate of candidates) {
    let bytes: Uint8Array
    try {
      bytes = await context.source.read(candidate, budget.bytes)
    } catch (error) {
      if (error instanceof ReadRefusedError) continue
      throw error
    }
    budget.bytes -= bytes.length
    const text = utf8Text(bytes).replace(/\r\n?/g, '\n').replace(/\n+$/, '')
    const code = tag.named.code === 'true' || (tag.named.lang !== undefined && tag.delimiter === '<')
    if (!code) return text.split('\n').join('\n' + indent)
    // A code block begins on a line of its own; the following lines keep the tag's indentation (a list item's).
    const fenced = fencedLines(text.split('\n'), tag.named.lang ?? '', indent)
    return '\n' + fenced.join('\n') + '\n' + indent
  }
  return undefined
}
