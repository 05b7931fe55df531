/**
 * Where the suite's build of the package is (`test/global-setup.ts` compiles
 * it): `dist/`, or the folder `KBSYNC_DIST` names, so that people working in
 * one checkout at once each test their own build.
 */
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** The build folder, absolute. */
export const builtDir = path.resolve(root, process.env.KBSYNC_DIST ?? 'dist')

/** A file of the build, e.g. `builtFile('src/cli/bin.js')`. */
export function builtFile(relative: string): string {
  return path.join(builtDir, relative)
}

/** The built CLI's entry point. */
export const builtCli = builtFile('src/cli/bin.js')
