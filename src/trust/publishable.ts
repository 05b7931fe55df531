/**
 * What may be published: the one door through which every local file whose
 * bytes reach the knowledge base passes (an mdBook include, an image, an
 * attachment, a file linked for upload, a root-relative `/img/x.png`).
 * `actions/checkout` leaves `extraheader = AUTHORIZATION: basic …` in
 * `.git/config`, and a `.env` beside the docs holds what its name says: a
 * repository's author must not be able to publish them by naming them.
 *
 * A file may be published only when all of these hold:
 * - it is a regular file whose real path (links resolved) lies inside the
 *   source (the git repository that holds the synced folder, else the
 *   folder): `read.ts`'s rule, so never a FIFO, device or socket, never
 *   through a link that leaves;
 * - no segment of its path below the source starts with `.`, neither as
 *   named nor once links are resolved: `.git/`, `.github/`, `.env`,
 *   `.npmrc`, `.ssh/` are never published (segments of the synced folder's
 *   own place in the repository do not count: a folder may be synced from
 *   inside one). Strict on purpose: dot-files are where tools keep secrets
 *   and settings, not documentation;
 * - git does not ignore it (as named nor as resolved): the `.gitignore`
 *   files from the source's root down to its folder, and
 *   `.git/info/exclude`, read as data with the `ignore` package, deeper
 *   files overriding shallower ones as in git. git itself is never run (a
 *   repository's `.git/config` may name programs for it to run, such as
 *   `core.fsmonitor`), and the user's global excludes file is not read.
 *   Without a repository the folder's `.gitignore` files still count. A
 *   `.gitignore` that cannot be read as a file (a FIFO, a link out, over
 *   1 MB) refuses everything below it: what git ignores there is unknown.
 *
 * Anything else is refused with a `ReadRefusedError` whose reason is one of
 * `PublishRefusal` and whose message names the file by its path in the source.
 */
import {realpath} from 'node:fs/promises'
import path from 'node:path'
import ignore, {type Ignore} from 'ignore'
import {lookInside, readInside, readTextInside, ReadRefusedError, type FoundFile, type ReadRefusal} from './read.js'
import {isInside} from './paths.js'

/** Why a file may not be published: `read.ts`'s reasons, a dot segment in its path, or git ignores it. */
export type PublishRefusal = ReadRefusal | 'hidden' | 'ignored'

/** The most bytes of a `.gitignore` (or `.git/info/exclude`) read; a larger one refuses what lies below it. */
export const maxIgnoreFileBytes = 1048576

/** The rules of one `.gitignore` (or `.git/info/exclude`), by the folder they apply to. */
interface IgnoreLevel {
  /** The folder, relative to the source with `/` (`''` for its root). */
  dir: string
  /** The file the rules come from, relative to the source (for messages). */
  file: string
  rules?: Ignore
  /** Why the file could not be read, when it could not: then everything below is refused. */
  unreadable?: string
}

/**
 * The source files are published from, and git's ignore rules in it, read
 * once per folder and kept: make one per scan (or per push), not per file.
 */
export class PublishSource {
  private readonly levels = new Map<string, Promise<IgnoreLevel | undefined>>()
  private readonly checked = new Map<string, Promise<FoundFile>>()

  private constructor(
    /** Real path of the source: the repository root, else the synced folder. */
    readonly root: string,
    /** Real path of the synced folder, relative to `root` with `/` (`''` when it is the root). */
    private readonly folder: string
  ) {}

  /**
   * The source whose root is `root` (the repository that holds the synced
   * folder, else the folder itself) for the synced folder `folder`; both
   * absolute, their links resolved here.
   */
  static async open(root: string, folder: string = root): Promise<PublishSource> {
    const real = await realpath(root)
    const relative = path
      .relative(real, await realpath(folder))
      .split(path.sep)
      .join('/')
    return new PublishSource(real, isInside(real, path.join(real, relative)) ? relative : '')
  }

  /**
   * Checks, reading nothing of it, that the file at `absolute` (as the
   * author named it, resolved against its folder) may be published; answers
   * its real path and size, or throws `ReadRefusedError<PublishRefusal>`.
   * Answers are kept: a file checked twice is looked at once.
   */
  check(absolute: string): Promise<FoundFile> {
    const key = path.resolve(absolute)
    let checking = this.checked.get(key)
    if (checking === undefined) this.checked.set(key, (checking = this.checkNow(key)))
    return checking
  }

  /** The bytes of the file at `absolute` once `check` lets it through, at most `maxBytes` (`too-large` beyond). */
  async read(absolute: string, maxBytes: number): Promise<Uint8Array> {
    await this.check(absolute)
    // Read by its name again, so that a refusal names it as the author does; the links are followed by the same rule.
    return readInside(this.named(absolute), {boundary: this.root, maxBytes})
  }

  /** The path of `absolute` in the source, as messages show it. */
  named(absolute: string): string {
    return path.relative(this.root, path.resolve(absolute)).split(path.sep).join('/')
  }

  private async checkNow(absolute: string): Promise<FoundFile> {
    const name = this.named(absolute)
    // A path that leaves the source as written is refused before the file system is asked anything about it.
    if (!isInside(this.root, absolute))
      throw new ReadRefusedError<PublishRefusal>('outside', name, `${name} lies outside ${this.root}`)
    const found = await lookInside(name, this.root)
    const real = this.named(found.real)
    for (const relative of name === real ? [name] : [name, real]) {
      const hidden = this.hiddenSegment(relative)
      if (hidden !== undefined) {
        const through = relative === name ? '' : ` (through a symbolic link, it is ${real})`
        const what =
          relative.endsWith('/' + hidden) || relative === hidden ? 'is a dot-file' : `lies in the dot-folder ${hidden}`
        throw new ReadRefusedError<PublishRefusal>(
          'hidden',
          name,
          `${name}${through} ${what}: kbsync never publishes dot-files or what dot-folders hold (.git, .env, .github)`
        )
      }
      const ignored = await this.ignoredBy(relative)
      if (ignored !== undefined) {
        const through = relative === name ? '' : ` (through a symbolic link, it is ${real})`
        throw new ReadRefusedError<PublishRefusal>('ignored', name, `${name}${through} ${ignored}`)
      }
    }
    return found
  }

  /** The first segment of `relative` (a path in the source) that starts with `.`, below the synced folder's own place. */
  private hiddenSegment(relative: string): string | undefined {
    const own =
      this.folder !== '' && (relative === this.folder || relative.startsWith(this.folder + '/'))
        ? relative.slice(this.folder.length + 1)
        : relative
    return own.split('/').find((segment) => segment.startsWith('.'))
  }

  /**
   * Why git ignores `relative` (a file of the source), as the end of a
   * sentence; undefined when it does not. As git: a path is ignored when it
   * or a folder above it is, each judged by the rules of the folders above
   * it, the deeper rules last (they win), `.git/info/exclude` first.
   */
  private async ignoredBy(relative: string): Promise<string | undefined> {
    const parts = relative.split('/')
    const levels: IgnoreLevel[] = []
    const exclude = await this.level('', '.git/info/exclude')
    if (exclude) levels.push(exclude)
    for (let depth = 0; depth < parts.length; depth++) {
      const dir = parts.slice(0, depth).join('/')
      const level = await this.level(dir, dir === '' ? '.gitignore' : `${dir}/.gitignore`)
      if (level?.unreadable !== undefined) return level.unreadable
      if (level) levels.push(level)
      const prefix = parts.slice(0, depth + 1).join('/')
      const why = judged(levels, prefix, depth + 1 < parts.length)
      if (why !== undefined) return why
    }
    return undefined
  }

  /** The rules of the ignore file `file` (relative to the source) for the folder `dir`, read once; undefined when there is none. */
  private level(dir: string, file: string): Promise<IgnoreLevel | undefined> {
    let loading = this.levels.get(file)
    if (loading === undefined) this.levels.set(file, (loading = this.loadLevel(dir, file)))
    return loading
  }

  private async loadLevel(dir: string, file: string): Promise<IgnoreLevel | undefined> {
    try {
      const text = await readTextInside(file, {boundary: this.root, maxBytes: maxIgnoreFileBytes})
      return {dir, file, rules: ignore().add(text)}
    } catch (error) {
      if (!(error instanceof ReadRefusedError)) throw error
      if (error.reason === 'missing') return undefined
      return {
        dir,
        file,
        unreadable: `lies under ${file}, which cannot be read as git's ignore rules (${error.message}): kbsync cannot tell whether git ignores it`
      }
    }
  }
}

/** Why the levels' rules ignore `prefix` (a folder when `isDir`), the deepest rule that says winning; undefined when none ignores it. */
function judged(levels: readonly IgnoreLevel[], prefix: string, isDir: boolean): string | undefined {
  let why: string | undefined
  for (const level of levels) {
    if (!level.rules || (level.dir !== '' && !prefix.startsWith(level.dir + '/'))) continue
    const relative = level.dir === '' ? prefix : prefix.slice(level.dir.length + 1)
    const result = level.rules.test(isDir ? relative + '/' : relative)
    if (result.ignored)
      why = `is ignored by git (\`${result.rule?.pattern ?? relative}\` in ${level.file}${isDir ? `, for the folder ${prefix}` : ''}): kbsync publishes only what the repository holds`
    else if (result.unignored) why = undefined
  }
  return why
}
