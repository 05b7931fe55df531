import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {builtDir} from './built.js'

/**
 * Compile once before the suites run, so tests that spawn the CLI
 * (`builtCli`) exercise the code under test, not a stale build. With
 * `KBSYNC_DIST` (a private build while others edit the same checkout) the
 * build goes there, and type errors of files being edited do not stop it.
 */
export default function setup(): () => void {
  const root = new URL('..', import.meta.url)
  try {
    execFileSync(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', builtDir],
      {cwd: root, stdio: 'inherit'}
    )
  } catch (error) {
    if (process.env.KBSYNC_DIST === undefined) throw error
    console.warn(`global-setup: the build into ${builtDir} reported type errors; testing what it emitted`)
  }
  return runTemporaryFolder()
}

/**
 * Points the system's temporary folder (`TMPDIR`, read by `os.tmpdir()` in
 * the test workers and the CLI processes they spawn) at one folder for this
 * run, removed when the run ends: a suite that forgets its temporary folders,
 * or is stopped halfway, leaves nothing behind in /tmp.
 */
function runTemporaryFolder(): () => void {
  const folder = mkdtempSync(path.join(tmpdir(), 'kbsync-tests-'))
  process.env.TMPDIR = folder
  return () => rmSync(folder, {recursive: true, force: true})
}
