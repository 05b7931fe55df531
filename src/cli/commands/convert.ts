/**
 * `kbsync convert [--from gfm|kb] [--to kb|gfm|html|comment-html] [FILE]`:
 * one body between GitHub-flavoured Markdown, the dialect, preview HTML and
 * the comment HTML subset; stdin to stdout when no file is given.
 */
import {readFile} from 'node:fs/promises'
import {decodeText, type Diagnostic} from '../../local/index.js'
import {formatDiagnostic} from '../output/index.js'
import {guardedStream} from '../output/guarded-stream.js'
import {oneLine} from '../../trust/index.js'
import {infoLines} from '../output/infos.js'
import {severityOfFatal} from '../../local/diagnostic.js'
import path from 'node:path'
import type {Root} from 'mdast'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {gfmToKbTree, kbTreeToCommentHtml, kbTreeToGfm, kbTreeToHtml, parseKb, stringifyKb} from '../../dialect/index.js'
import type {Command, CommandContext} from '../command.js'
import {commandSummary} from './catalog.js'
import {exitCodes} from '../exit-codes.js'
import {UsageError} from '../errors.js'
import {articleUrlOf, loadConfig} from '../config.js'
import {frontMatterNote, splitFrontMatter} from './convert-front-matter.js'
import {disarmScriptUrls} from '../../dialect/gfm-to-kb/script-urls.js'

const sources = ['gfm', 'kb'] as const
const targets = ['kb', 'gfm', 'html', 'comment-html'] as const

type Source = (typeof sources)[number]
type Target = (typeof targets)[number]

function choice<T extends string>(value: unknown, allowed: readonly T[], fallback: T, name: string): T {
  if (value === undefined) return fallback
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, not '${String(value)}'`)
  }
  return value as T
}

async function readStdin(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  return Buffer.concat(chunks)
}

/** The input as a dialect tree, with the warnings of reading it. */
function toTree(source: Source, text: string, name: string): {tree: Root; messages: VFileMessage[]} {
  if (source === 'gfm') return gfmToKbTree(text, {path: name})
  const file = new VFile({value: text, path: name})
  const tree = parseKb(file)
  // A dialect body is data too: a link that runs a script becomes its text, as from GFM.
  disarmScriptUrls(tree, file)
  return {tree, messages: file.messages}
}

/** The tree in the target form, with the warnings of writing it; `articleUrl` makes article links (default: the dialect's). */
function fromTree(
  target: Target,
  tree: Root,
  articleUrl?: (id: string) => string
): {output: string; messages: VFileMessage[]} {
  switch (target) {
    case 'kb':
      return {output: stringifyKb(tree), messages: []}
    case 'gfm': {
      const {markdown, messages} = kbTreeToGfm(tree, articleUrl ? {articleUrl} : {})
      return {output: markdown, messages}
    }
    case 'html':
      return {output: withNewline(kbTreeToHtml(tree, articleUrl ? {articleHref: articleUrl} : {})), messages: []}
    case 'comment-html':
      return {output: withNewline(kbTreeToCommentHtml(tree)), messages: []}
  }
}

/**
 * The configured article URL, for the targets that link articles for humans.
 * Only the config file and KBSYNC_* variables are read: no token file, no connection.
 */
async function configuredArticleUrl(
  target: Target,
  context: CommandContext
): Promise<((id: string) => string) | undefined> {
  if (target !== 'gfm' && target !== 'html') return undefined
  return articleUrlOf(
    await loadConfig({cwd: context.cwd, env: context.env, flags: context.values, withoutSecrets: true})
  )
}

function withNewline(value: string): string {
  return value === '' || value.endsWith('\n') ? value : value + '\n'
}

/** The info messages (fatal null or undefined) as diagnostics: summed up per rule, never printed one each. */
function infosOf(messages: readonly VFileMessage[], name: string): Diagnostic[] {
  return messages
    .filter((message) => severityOfFatal(message.fatal) === 'info')
    .map((message) => ({
      severity: 'info',
      file: name,
      message: message.reason,
      ...(message.ruleId ? {rule: message.ruleId} : {})
    }))
}

/** `FILE:LINE:COL: warning: message` (`error:` for a fatal one), as compilers print them. */
export function formatWarning(message: VFileMessage, name: string): string {
  const severity = severityOfFatal(message.fatal)
  return `${name}:${message.line ?? 1}:${message.column ?? 1}: ${severity}: ${oneLine(message.reason)}${message.ruleId ? ` [${message.ruleId}]` : ''}\n`
}

export const convertCommand: Command = {
  name: 'convert',
  summary: commandSummary('convert'),
  usage: 'kbsync convert [--from gfm|kb] [--to kb|gfm|html|comment-html] [--article-url URL] [--config FILE] [FILE]',
  description: `Reads FILE (or standard input when no file is given) and writes the converted
body to standard output. Every construct the target cannot hold is converted
to its closest form and reported on standard error as FILE:LINE:COL: warning: ...
(nothing is dropped silently). A body that cannot be converted at all (nested
deeper than the dialect's limit) is reported as FILE:LINE:COL: error: ..., with
no output and exit code 2. Front matter (a YAML block between --- lines at the
top) is no part of the body: written as GFM it is kept above the body; in the
dialect and HTML it is left out (its title is the article's name when pushed),
with a note on standard error. See docs/conversions.md for the rules.

Options:
  --from gfm|kb                     input: GitHub-flavoured Markdown (default) or the dialect
  --to kb|gfm|html|comment-html     output: the dialect (default), GitHub-flavoured Markdown,
                                    preview HTML, or the HTML subset of task comments
  --article-url URL                 URL of an article, {id} standing for its id: the links
                                    article links become with --to gfm and --to html (config
                                    key articleUrl; default https://pyrus.com/t#kb/article/{id})
  --config FILE                     read articleUrl from this config file instead of the one
                                    found walking up from the current folder (no credentials needed)
`,
  examples: [
    'kbsync convert docs/guide.md',
    'kbsync convert --from kb --to gfm body.md > guide.md',
    'cat body.md | kbsync convert --from kb --to comment-html',
    "kbsync convert --from kb --to gfm --article-url 'https://kb.example.com/t#kb/article/{id}' body.md"
  ],
  options: {
    from: {type: 'string'},
    to: {type: 'string'},
    'article-url': {type: 'string'},
    config: {type: 'string'}
  },
  async run(context: CommandContext) {
    const source = choice(context.values.from, sources, 'gfm', 'from')
    const target = choice(context.values.to, targets, 'kb', 'to')
    if (context.positionals.length > 1) throw new UsageError('expected at most one file')
    const file = context.positionals[0]
    let bytes: Buffer
    if (file === undefined || file === '-') bytes = await readStdin(context.stdin)
    else {
      try {
        bytes = await readFile(path.resolve(context.cwd, file))
      } catch (error) {
        throw new UsageError(
          `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
        )
      }
    }
    const name = file === undefined || file === '-' ? '<stdin>' : file
    // Invalid UTF-8 would come out as U+FFFD, silently: refused, as push refuses it.
    const problems: Diagnostic[] = []
    const text = decodeText(bytes, name, problems)
    if (problems.length > 0) {
      for (const problem of problems) guardedStream(context.stderr, context.env).write(`${formatDiagnostic(problem)}\n`)
      return exitCodes.invalid
    }
    // Front matter is no part of the body: kept above it in GFM, left out of the dialect and HTML (with a note).
    const split = splitFrontMatter(text, name, source === 'kb')
    for (const problem of split.problems)
      guardedStream(context.stderr, context.env).write(`${formatDiagnostic(problem)}\n`)
    if (split.problems.some((problem) => problem.severity === 'error')) return exitCodes.invalid
    const read = toTree(source, target === 'gfm' ? split.body : split.untitled, name)
    // A body that cannot be converted (nested past the dialect's limit) gives no output, not a capped one.
    if (read.messages.some((message) => message.fatal)) {
      for (const message of read.messages)
        guardedStream(context.stderr, context.env).write(formatWarning(message, name))
      return exitCodes.invalid
    }
    const written = fromTree(target, read.tree, await configuredArticleUrl(target, context))
    const kept = split.block !== '' && target === 'gfm'
    context.stdout.write(kept ? split.block + (written.output === '' ? '' : '\n' + written.output) : written.output)
    const messages = [...read.messages, ...written.messages]
    if (split.block !== '' && !kept) messages.unshift(frontMatterNote(split))
    for (const message of messages)
      if (severityOfFatal(message.fatal) !== 'info')
        guardedStream(context.stderr, context.env).write(formatWarning(message, name))
    for (const line of infoLines(infosOf(messages, name)))
      guardedStream(context.stderr, context.env).write(`${name}: ${line}\n`)
    return exitCodes.ok
  }
}
