/**
 * The published package's declarations compile for a strict TypeScript user
 * who has no Node.js types (`"types": []`, no @types/node): the package is
 * packed as `npm pack` would publish it, installed into a temporary project,
 * and `consumer/use.ts` (every entry point) is type-checked with TypeScript
 * 5.9 and the current release, in NodeNext and in Bundler resolution, with
 * `skipLibCheck` off so every declaration file is checked.
 */
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {cp, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {consumerProject, pack, repo} from './pack.js'

let scratch: string
let consumer: string

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'kbsync-types-'))
  // The current TypeScript comes from the registry (as a user gets it); 5.9 is the project's own.
  consumer = await consumerProject(scratch, await pack(scratch), {more: ['typescript-current@npm:typescript@latest']})
  await cp(path.join(repo, 'test/package/consumer/use.ts'), path.join(consumer, 'src/use.ts'))
}, 300_000)

afterAll(async () => {
  await rm(scratch, {recursive: true, force: true})
})

const resolutions = {
  NodeNext: {module: 'NodeNext', moduleResolution: 'NodeNext'},
  Bundler: {module: 'ESNext', moduleResolution: 'Bundler'}
}
const compilers = {
  '5.9': () => path.join(repo, 'node_modules/typescript/bin/tsc'),
  current: () => path.join(consumer, 'node_modules/typescript-current/bin/tsc')
}

describe('the published declarations', () => {
  it("bring no Node.js types into the user's project", () => {
    expect(existsSync(path.join(consumer, 'node_modules/kbsync/dist/src/index.d.ts'))).toBe(true)
    expect(existsSync(path.join(consumer, 'node_modules/@types/node'))).toBe(false)
  })

  for (const [version, tsc] of Object.entries(compilers)) {
    for (const [resolution, options] of Object.entries(resolutions)) {
      it(`compile with TypeScript ${version}, ${resolution} resolution, "types": [] and no @types/node`, async () => {
        const config = path.join(consumer, `tsconfig.${resolution}.json`)
        const compilerOptions = {
          ...options,
          target: 'ES2022',
          strict: true,
          noEmit: true,
          types: [],
          skipLibCheck: false
        }
        await writeFile(config, JSON.stringify({compilerOptions, include: ['src']}))
        const compiler = tsc()
        const shown = execFileSync(process.execPath, [compiler, '--version'], {encoding: 'utf8'})
        if (version === '5.9') expect(shown).toMatch(/Version 5\.9\./)
        let output = ''
        try {
          execFileSync(process.execPath, [compiler, '-p', config], {cwd: consumer, encoding: 'utf8'})
        } catch (error) {
          output = String((error as {stdout?: string}).stdout ?? error)
        }
        expect(output.split('\n').filter((line) => line.includes('error TS'))).toEqual([])
      }, 120_000)
    }
  }

  it('are what the package says it ships (types of every entry point exist)', async () => {
    const manifest = JSON.parse(await readFile(path.join(consumer, 'node_modules/kbsync/package.json'), 'utf8'))
    for (const entry of Object.values<{types: string}>(manifest.exports).filter((e) => typeof e === 'object')) {
      expect(existsSync(path.join(consumer, 'node_modules/kbsync', entry.types))).toBe(true)
    }
  })
})
