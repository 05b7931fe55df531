import {execFileSync} from 'node:child_process'
import {fileURLToPath} from 'node:url'

/**
 * Compile once before the suites run, so tests that spawn the CLI
 * (`node dist/src/cli/bin.js`) exercise the code under test, not a stale build.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url))
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit'
  })
}
