/**
 * File names another operating system cannot hold. The folder lives in git
 * and is cloned on Windows and macOS too (and `kbsync pull` writes these
 * names back), so a name Linux accepts but those refuse is reported, once
 * per entry, as a warning naming the file.
 */
import type {Diagnostic} from './diagnostic.js'

// Windows reserves these device names, with any extension.
const reserved = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i
// Characters Windows refuses in a name (and control characters everywhere).
// eslint-disable-next-line no-control-regex
const forbidden = /[<>:"\\|?*\u0000-\u001f]/
const maxBytes = 255

/**
 * Warnings for the entries `names` of the directory `relative` (repo
 * relative, `''` for the root): reserved or forbidden names, trailing dots or
 * spaces, names too long, and names that differ only in case (one file on a
 * case-insensitive file system).
 */
export function fileNameProblems(relative: string, names: string[]): Diagnostic[] {
  const problems: Diagnostic[] = []
  const at = (name: string) => (relative === '' ? name : `${relative}/${name}`)
  const warn = (name: string, message: string) =>
    problems.push({
      severity: 'warning',
      file: at(name),
      message,
      hint: 'Rename the file so that every system can hold it',
      rule: 'file-name'
    })
  const byFolded = new Map<string, string>()
  for (const name of names) {
    if (reserved.test(name)) warn(name, `\`${name}\` is a reserved device name on Windows`)
    else if (forbidden.test(name))
      warn(
        name,
        `\`${name}\` holds a character Windows does not allow in file names (< > : " \\ | ? * or a control character)`
      )
    else if (/[. ]$/.test(name)) warn(name, `\`${name}\` ends with a dot or a space, which Windows drops`)
    if (Buffer.byteLength(name) > maxBytes) warn(name, `\`${name.slice(0, 20)}…\` is longer than ${maxBytes} bytes`)
    const folded = name.normalize('NFC').toLowerCase()
    const previous = byFolded.get(folded)
    if (previous !== undefined) {
      const how =
        previous.normalize('NFC') === name.normalize('NFC')
          ? 'in how their accented letters are encoded (Unicode NFC and NFD): one file on macOS'
          : 'in case: one file on Windows and macOS'
      warn(name, `\`${name}\` and \`${previous}\` differ only ${how}`)
    } else byFolded.set(folded, name)
  }
  return problems
}

/** Extensions of the files that are documents (articles or topic bodies): Markdown and MDX. */
export const documentExtensions = ['.md', '.mdx'] as const

/**
 * Whether the file `name` is a document: `.md` or `.mdx`, but not the
 * `.remote.md` a conflict leaves beside a file, nor a partial.
 */
export function isDocumentName(name: string): boolean {
  const lower = name.toLowerCase()
  return (
    documentExtensions.some((extension) => lower.endsWith(extension)) &&
    !lower.endsWith('.remote.md') &&
    !isPartialName(name)
  )
}

/**
 * Whether `name` is a partial: a `.md`/`.mdx` file whose name starts with
 * `_` (other than kbsync's `_index.md`). Docs sites never make a page of
 * one: Docusaurus imports it into pages, docsify and GitHub wikis show
 * `_sidebar.md` / `_Footer.md` around them.
 */
export function isPartialName(name: string): boolean {
  return name.startsWith('_') && name !== '_index.md' && /\.mdx?$/i.test(name)
}

/** The name of a document file without its folder and its `.md`/`.mdx` extension (NFC): the title of last resort. */
export function documentStem(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1)
  return base.replace(/\.mdx?$/i, '').normalize('NFC')
}
