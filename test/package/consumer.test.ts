/**
 * A library user's install (issue 33): the packed tarball installed into a
 * fresh project with `--omit=optional`. `import('kbsync/dialect')` loads
 * none of the browser, the renderers, the highlighter, HTTP or the watcher
 * (every module the import resolves is recorded by a loader hook), the
 * entries work and their declarations compile without the optional
 * packages, and a feature that needs one says which package to install.
 */
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {cp, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {consumerProject, pack, repo} from './pack.js'

const optional = ['playwright-core', 'mermaid', 'shiki', 'mathjax-full']
const heavy = [...optional, 'undici', 'chokidar', '@fastify/busboy', 'jsdom']

let scratch: string
let consumer: string

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'kbsync-consumer-'))
  consumer = await consumerProject(scratch, await pack(scratch), {libraryOnly: true})
  // Records every module URL the program resolves (the hooks run on their own thread: one line per module).
  await writeFile(
    path.join(consumer, 'hooks.mjs'),
    "import {appendFileSync} from 'node:fs'\n" +
      'export async function resolve(specifier, context, next) {\n' +
      '  const resolved = await next(specifier, context)\n' +
      "  appendFileSync(process.env.RESOLVED_LOG, resolved.url + '\\n')\n" +
      '  return resolved\n}\n'
  )
  await writeFile(
    path.join(consumer, 'record.mjs'),
    "import {register} from 'node:module'\nregister('./hooks.mjs', import.meta.url)\n"
  )
}, 300_000)

afterAll(async () => {
  await rm(scratch, {recursive: true, force: true})
})

/** Runs `code` as an ES module in the consumer project; its output, and the packages whose modules it resolved. */
function run(code: string): {output: string; packages: Set<string>} {
  const log = path.join(scratch, `resolved-${Math.random().toString(36).slice(2)}.log`)
  const output = execFileSync(process.execPath, ['--import', './record.mjs', '--input-type=module', '-e', code], {
    cwd: consumer,
    encoding: 'utf8',
    env: {...process.env, RESOLVED_LOG: log}
  })
  const urls = existsSync(log) ? execFileSync('cat', [log], {encoding: 'utf8'}).split('\n') : []
  const packages = new Set<string>()
  for (const url of urls) {
    // The last node_modules segment names the package a module belongs to.
    const name = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]
    if (name) packages.add(name)
  }
  return {output, packages}
}

describe('a library-only install of the packed package', () => {
  it('has none of the optional packages', () => {
    expect(optional.filter((name) => existsSync(path.join(consumer, 'node_modules', name)))).toEqual([])
    expect(existsSync(path.join(consumer, 'node_modules/kbsync/dist/src/dialect/index.js'))).toBe(true)
  })

  it("import('kbsync/dialect') loads none of the heavy packages, and converts", () => {
    const {output, packages} = run(
      "const {kbToHtml, gfmToKb, parseKb} = await import('kbsync/dialect')\n" +
        "console.log(kbToHtml('<u>u</u>'), gfmToKb('> [!NOTE]\\n> n\\n').markdown.trim(), parseKb('<u>x').data.messages.length)"
    )
    expect(packages.has('kbsync')).toBe(true)
    expect(heavy.filter((name) => packages.has(name))).toEqual([])
    expect(output).toContain('<p><u>u</u></p>')
    expect(output).toContain('data-node="hintBlock"')
  })

  it("import('kbsync/plugins') and import('kbsync') load none of them either", () => {
    for (const entry of ['kbsync/plugins', 'kbsync']) {
      const {packages} = run(`await import('${entry}')`)
      expect(packages.has('kbsync'), entry).toBe(true)
      expect(
        heavy.filter((name) => packages.has(name)),
        entry
      ).toEqual([])
    }
  })

  it('the declarations compile without the optional packages (strict, no Node types)', async () => {
    await cp(path.join(repo, 'test/package/consumer/use.ts'), path.join(consumer, 'src/use.ts'))
    const compilerOptions = {module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true}
    const config = {
      compilerOptions: {...compilerOptions, noEmit: true, types: [], skipLibCheck: false},
      include: ['src']
    }
    await writeFile(path.join(consumer, 'tsconfig.json'), JSON.stringify(config))
    let output = ''
    try {
      execFileSync(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
        cwd: consumer,
        encoding: 'utf8'
      })
    } catch (error) {
      output = String((error as {stdout?: string}).stdout ?? error)
    }
    expect(output.split('\n').filter((line) => line.includes('error TS'))).toEqual([])
  }, 120_000)

  it('a feature that needs a missing optional package names it', () => {
    const {output} = run(
      "const {startPreview} = await import('kbsync')\n" +
        "await startPreview({dir: '.'}).then(() => console.log('started'), (error) => console.log(error.name, error.message))"
    )
    expect(output).toMatch(/^MissingPackageError .*"shiki".*npm install shiki/)
  })
})
