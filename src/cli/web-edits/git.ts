/**
 * The one way kbsync runs git: the user's `git`, found on PATH (never a
 * program the repository names), started without a shell, its arguments an
 * array, its output bounded. Prompts are off: a run that needs a password
 * fails instead of waiting for one.
 */
import {spawn} from 'node:child_process'
import {devNull} from 'node:os'

/** The most bytes of output read from one git command (a tree listing of a large repository fits). */
const maxOutputBytes = 64 * 1024 * 1024

/** How one git command runs. */
export interface GitOptions {
  /** The working directory (a checkout or a worktree). */
  cwd: string
  /** Extra environment (an identity for a commit). */
  env?: Record<string, string>
  /** Settings for this command only (`http.<url>.extraheader`), passed as `GIT_CONFIG_*` variables: never in argv (a process list) or a file. */
  config?: Record<string, string>
  /** Sent on standard input (a commit message). */
  input?: string
  /** Exit codes that are answers, not failures (`merge-base --is-ancestor` answers 1). */
  okCodes?: readonly number[]
}

/** What a git command printed, and how it ended. */
export interface GitAnswer {
  code: number
  stdout: string
  stderr: string
}

/** A git command that failed: its arguments and what git said. */
export class GitError extends Error {
  override name = 'GitError'
  constructor(
    readonly args: readonly string[],
    readonly answer: GitAnswer
  ) {
    const said = answer.stderr.trim().split('\n').slice(-3).join('; ')
    super(`git ${args[0] ?? ''} failed (exit ${answer.code})${said ? `: ${said}` : ''}`)
  }
}

/**
 * The environment of every git command: no prompt, no pager, no editor,
 * messages in English, and no hook: a hook is a program, and a checkout may
 * have pointed `core.hooksPath` into the repository's own files.
 */
function gitEnvironment(options: GitOptions): NodeJS.ProcessEnv {
  const config = Object.entries({'core.hooksPath': devNull, ...options.config})
  const pairs = Object.fromEntries(
    config.flatMap(([key, value], index) => [
      [`GIT_CONFIG_KEY_${index}`, key],
      [`GIT_CONFIG_VALUE_${index}`, value]
    ])
  )
  // The repository is the cwd's: a GIT_DIR or GIT_INDEX_FILE of the caller's (a hook's) would point elsewhere.
  const {GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, ...inherited} = process.env
  void [GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE]
  return {
    ...inherited,
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'true',
    LC_ALL: 'C',
    ...options.env,
    GIT_CONFIG_COUNT: String(config.length),
    ...pairs
  }
}

/** Runs `git ARGS`; resolves with its answer, rejects with a `GitError` on an exit code not in `okCodes`. */
export function git(args: readonly string[], options: GitOptions): Promise<GitAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...args], {
      cwd: options.cwd,
      env: gitEnvironment(options),
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    let size = 0
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length
      if (size > maxOutputBytes) child.kill()
      else into.push(chunk)
    }
    child.stdout.on('data', collect(out))
    child.stderr.on('data', collect(err))
    child.on('error', (error) =>
      reject(new Error(`could not run git (${error.message}): install git and put it on PATH`))
    )
    child.on('close', (code) => {
      const answer = {
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8')
      }
      if (answer.code === 0 || options.okCodes?.includes(answer.code)) resolve(answer)
      else reject(new GitError(args, answer))
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(options.input ?? '')
  })
}

/** The trimmed standard output of `git ARGS`. */
export async function gitText(args: readonly string[], options: GitOptions): Promise<string> {
  return (await git(args, options)).stdout.trim()
}
