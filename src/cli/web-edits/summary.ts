/**
 * The words of a pull committed to a branch: the commit message (plain text)
 * and the pull request's title and description (GitHub Markdown), both
 * listing what changed on the platform per document and the conflicts. Plain
 * data in, text out. Titles and paths come from the platform and the
 * repository: on one line each, paths in code spans, titles escaped so that
 * none becomes a link, a mention or HTML.
 */
import path from 'node:path'
import {oneLine} from '../../trust/index.js'
import type {PullOp, PullOpKind} from '../../sync/pull/index.js'

/** One document the pull changed, its file relative to the repository. */
export interface ChangedDocument {
  kind: PullOpKind
  type: PullOp['type']
  file: string
  /** Where it was, for a move. */
  from?: string
  title: string
  id: string
  reason: string
}

/** What a pull changed in the branch. */
export interface WebEditsSummary {
  documents: ChangedDocument[]
  /** The platform's versions of conflicting documents (`NAME.remote.md`), relative to the repository. */
  conflictCopies: string[]
  /** Other files changed (downloads, permission files, links rewritten), relative to the repository. */
  otherFiles: string[]
}

/** At most this many lines per list: a description stays readable (and under GitHub's 65,536 characters). */
const maxListed = 200

const verbs: Record<PullOpKind, string> = {
  create: 'added',
  update: 'updated',
  move: 'moved',
  delete: 'deleted',
  conflict: 'conflict'
}

/**
 * The summary of a pull, from its ops (paths relative to the synced folder,
 * which is `prefix` in the repository) and the files that differ in the
 * commit. Only documents whose file changed are listed (an op that wrote what
 * was already there is none), plus deletions, moves and conflicts.
 */
export function summarise(
  ops: readonly PullOp[],
  conflictCopies: readonly string[],
  prefix: string,
  changed: ReadonlySet<string>
): WebEditsSummary {
  const inRepo = (file: string) => path.posix.join(prefix, file)
  const documents: ChangedDocument[] = []
  const attributed = new Set<string>()
  for (const op of ops) {
    if (op.refresh === true) continue
    const file = inRepo(op.file)
    const from = op.from !== undefined && op.from !== op.path ? inRepo(op.from) : undefined
    const touched = changed.has(file) || (from !== undefined && [...changed].some((f) => f.startsWith(from)))
    if (!touched && op.op !== 'conflict') continue
    attributed.add(file)
    documents.push({
      kind: op.op,
      type: op.type,
      file,
      ...(from !== undefined ? {from} : {}),
      title: op.title,
      id: op.id,
      reason: op.reason
    })
  }
  const copies = conflictCopies.map(inRepo).filter((file) => changed.has(file))
  for (const file of copies) attributed.add(file)
  const otherFiles = [...changed].filter((file) => !attributed.has(file)).sort()
  return {documents, conflictCopies: copies, otherFiles}
}

/** Whether the summary holds anything at all. */
export function isEmptySummary(summary: WebEditsSummary): boolean {
  return summary.documents.length === 0 && summary.conflictCopies.length === 0 && summary.otherFiles.length === 0
}

/** `n thing(s)`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** The first line of the commit message and the pull request's title. */
export function summaryTitle(summary: WebEditsSummary): string {
  const conflicts = summary.documents.filter((d) => d.kind === 'conflict').length
  const edited = summary.documents.length - conflicts
  const parts = [count(edited, 'document')]
  if (conflicts > 0) parts.push(count(conflicts, 'conflict'))
  return `kbsync: web edits from the knowledge base (${parts.join(', ')})`
}

/** The first `maxListed` lines, and a line saying how many were left out. */
function capped(lines: string[]): string[] {
  if (lines.length <= maxListed) return lines
  return [...lines.slice(0, maxListed), `  ... and ${lines.length - maxListed} more`]
}

/** A commit message: the title, then one line per document, conflict and other file. */
export function commitMessage(summary: WebEditsSummary, source: string): string {
  const lines = [summaryTitle(summary), '', `Pulled from ${oneLine(source)} by kbsync pull.`]
  const documents = summary.documents.map((d) => {
    const where = d.from !== undefined ? `${d.from} -> ${d.file}` : d.file
    return `  ${verbs[d.kind]} ${d.type} ${oneLine(where)} "${oneLine(d.title)}" (${d.id})`
  })
  if (documents.length > 0) lines.push('', 'Documents:', ...capped(documents))
  if (summary.conflictCopies.length > 0)
    lines.push(
      '',
      "Conflicts (the platform's version beside the file):",
      ...capped(summary.conflictCopies.map((f) => `  ${oneLine(f)}`))
    )
  if (summary.otherFiles.length > 0)
    lines.push('', 'Other files:', ...capped(summary.otherFiles.map((f) => `  ${oneLine(f)}`)))
  return lines.join('\n') + '\n'
}

/** A code span holding `text` whatever backticks it contains. */
export function codeSpan(text: string): string {
  const line = oneLine(text)
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  // A space each side when the text starts or ends with a backtick, or starts and ends with a space (one is stripped).
  const spaced = line.startsWith(' ') && line.endsWith(' ') && line.trim() !== ''
  const pad = line.startsWith('`') || line.endsWith('`') || spaced ? ' ' : ''
  return `${fence}${pad}${line}${pad}${fence}`
}

/**
 * Text that GitHub shows as written: Markdown punctuation escaped, and a
 * zero-width space after `@`, before `//` of a scheme and after `www`, so no
 * mention, autolink, link or HTML can form (GitHub finds autolinks in text
 * after parsing, where escapes no longer count).
 */
export function markdownText(text: string): string {
  return oneLine(text)
    .replace(/@/g, '@\u200b')
    .replace(/:(?=\/\/)/g, ':\u200b')
    .replace(/(www)(?=\.)/gi, '$1\u200b')
    .replace(/[\\`*_{}[\]()<>#+!|~&:.]/g, (c) => `\\${c}`)
}

/** The pull request's description: what changed on the platform, per document, and the conflicts. */
export function pullRequestBody(summary: WebEditsSummary, source: string): string {
  const lines = [
    `Edits made in the knowledge base (${markdownText(source)}) since the last sync, pulled by \`kbsync pull --pull-request\`.`,
    'Merging this pull request brings them into git; the next `kbsync push` then has nothing to send for them.'
  ]
  const documents = summary.documents.filter((d) => d.kind !== 'conflict')
  if (documents.length > 0) {
    const rows = documents.map((d) => {
      const where = d.from !== undefined ? `${codeSpan(d.from)} → ${codeSpan(d.file)}` : codeSpan(d.file)
      return `- ${verbs[d.kind]} ${d.type} ${where}: "${markdownText(d.title)}" (id ${codeSpan(d.id)})`
    })
    lines.push('', `### Changed on the platform (${documents.length})`, '', ...capped(rows))
  }
  const conflicts = summary.documents.filter((d) => d.kind === 'conflict')
  if (conflicts.length > 0 || summary.conflictCopies.length > 0) {
    const rows = conflicts.map((d) => `- ${codeSpan(d.file)} "${markdownText(d.title)}": ${markdownText(d.reason)}`)
    const copies = summary.conflictCopies.map((f) => `- ${codeSpan(f)}`)
    lines.push(
      '',
      `### Conflicts (${conflicts.length})`,
      '',
      "Edited on the platform and in git: your file is kept as it is, and the platform's version is written beside it as `NAME.remote.md`. Resolve each before merging: keep yours (delete the copy), or move the copy over the file.",
      '',
      ...capped(rows)
    )
    if (copies.length > 0) lines.push('', "The platform's versions:", '', ...capped(copies))
  }
  if (summary.otherFiles.length > 0)
    lines.push(
      '',
      `### Other files (${summary.otherFiles.length})`,
      '',
      ...capped(summary.otherFiles.map((f) => `- ${codeSpan(f)}`))
    )
  return lines.join('\n') + '\n'
}
