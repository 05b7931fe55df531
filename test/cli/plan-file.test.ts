/**
 * `kbsync plan --json > FILE` then `kbsync push --plan FILE`, through the
 * built CLI against the local server over HTTP: the saved plan is applied
 * exactly when nothing changed since, and refused with exit 2, nothing
 * written, when the folder, the knowledge base or the file itself says
 * otherwise.
 */
import {execFile} from 'node:child_process'
import {readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {builtCli} from '../built.js'
import {useLocalServer} from '../e2e/local-server.js'
import {copyFixture, edit, flatten} from '../e2e/push-helpers.js'

const local = useLocalServer()
const folders: string[] = []

afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

/** Runs the built CLI; resolves to its exit code and output. */
function kbsync(argv: string[], cwd: string): Promise<{code: number; out: string; err: string}> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [builtCli, ...argv],
      {cwd, env: {...process.env, ...local.env}, maxBuffer: 1 << 26},
      (error, out, err) => {
        resolve({code: error ? Number(error.code ?? 1) : 0, out, err})
      }
    )
  })
}

/** A copy of the basic tree and a fresh root topic for it. */
async function setup(title: string): Promise<{dir: string; root: string}> {
  const dir = await copyFixture('fixtures/trees/basic')
  folders.push(dir)
  const root = (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
  return {dir, root}
}

/** `kbsync plan DIR --json` saved as `plan.json` beside the folder; returns the file and the plan. */
async function savePlan(
  dir: string,
  root: string
): Promise<{file: string; plan: {ops: Array<{op: string; path: string}>}}> {
  const made = await kbsync(['plan', dir, '--root-topic', root, '--json'], dir)
  expect(made.code).toBe(0)
  const file = path.join(dir, '..', `plan-${path.basename(dir)}.json`)
  await writeFile(file, made.out)
  return {file, plan: JSON.parse(made.out)}
}

/** The distinct steps of a list of ops (a document created first with its own text and then written whole is done twice). */
const stepsOf = (ops: Array<{op: string; path: string}>) => [...new Set(ops.map((op) => `${op.op} ${op.path}`))].sort()

// Each case spawns the CLI a few times: on a loaded machine that takes longer than the default 5 s.
describe('kbsync push --plan FILE', {timeout: 120_000}, () => {
  it('applies exactly the saved plan when nothing changed since; the next plan is empty', async () => {
    const {dir, root} = await setup('Saved plan')
    const {file, plan} = await savePlan(dir, root)
    expect(stepsOf(plan.ops)).toContain('create welcome.md')
    local.server.resetLog()
    const pushed = await kbsync(['push', dir, '--root-topic', root, '--plan', file, '--json'], dir)
    expect(pushed.err).not.toMatch(/out of date/)
    expect(pushed.code).toBe(0)
    const result = JSON.parse(pushed.out)
    expect(stepsOf([...result.done, ...result.skipped])).toEqual(stepsOf(plan.ops))
    expect(flatten(await local.client.getTree(root)).map((e) => e.titlePath)).toContain('Welcome')
    const again = await kbsync(['plan', dir, '--root-topic', root], dir)
    expect(again.out).toContain('No changes')
  })

  it('refuses a plan when a file was edited after it: exit 2, the file named, nothing written', async () => {
    const {dir, root} = await setup('Edited after the plan')
    await kbsync(['push', dir, '--root-topic', root], dir)
    await edit(path.join(dir, 'faq.md'), 'questions', 'questions, asked often')
    const {file} = await savePlan(dir, root)
    await edit(path.join(dir, 'welcome.md'), 'Welcome', 'Welcome again')
    local.server.resetLog()
    const pushed = await kbsync(['push', dir, '--root-topic', root, '--plan', file], dir)
    expect(pushed.code).toBe(2)
    expect(pushed.err).toMatch(/out of date: the folder changed since the plan: welcome\.md/)
    expect(pushed.err).toContain('Nothing was written')
    expect(local.server.counts().writes).toBe(0)
  })

  it('refuses a plan when an item was edited on the platform after it: exit 2, nothing written', async () => {
    const {dir, root} = await setup('Web edit after the plan')
    await kbsync(['push', dir, '--root-topic', root], dir)
    await edit(path.join(dir, 'faq.md'), 'questions', 'questions, asked often')
    const {file} = await savePlan(dir, root)
    const welcome = flatten(await local.client.getTree(root)).find((e) => e.titlePath === 'Welcome')!
    local.server.webEdit(welcome.id, {body: 'Edited on the web.'})
    local.server.resetLog()
    const pushed = await kbsync(['push', dir, '--root-topic', root, '--plan', file], dir)
    expect(pushed.code).toBe(2)
    expect(pushed.err).toContain(`the knowledge base changed since the plan`)
    expect(pushed.err).toContain(welcome.id)
    expect(local.server.counts().writes).toBe(0)
  })

  it('refuses the plan of another folder or another root: exit 2, both named', async () => {
    const first = await setup('One folder')
    const second = await setup('Another folder')
    const {file} = await savePlan(first.dir, first.root)
    local.server.resetLog()
    const otherFolder = await kbsync(['push', second.dir, '--root-topic', first.root, '--plan', file], second.dir)
    expect(otherFolder.code).toBe(2)
    expect(otherFolder.err).toContain(`it is the plan of the folder ${first.dir}, not of ${second.dir}`)
    const otherRoot = await kbsync(['push', first.dir, '--root-topic', second.root, '--plan', file], first.dir)
    expect(otherRoot.code).toBe(2)
    expect(otherRoot.err).toContain(`it is the plan of the root ${first.root}, not of ${second.root}`)
    expect(local.server.counts().writes).toBe(0)
  })

  it('refuses a malformed plan file before connecting: exit 2 naming the file and what is wrong', async () => {
    const {dir, root} = await setup('Malformed plan')
    const {file, plan} = await savePlan(dir, root)
    const cases: Array<[string, RegExp]> = [
      ['{"schemaVersion": 1, "ops": [', /plan-.*\.json: not JSON/],
      [
        JSON.stringify({...plan, ops: [{...plan.ops[0], op: 'explode'}]}),
        /plan-.*\.json: ops\[0\]\.op is "explode", not one of create/
      ],
      [JSON.stringify({...plan, fingerprint: undefined}), /plan-.*\.json: "fingerprint" is missing/],
      [JSON.stringify([]), /plan-.*\.json: not a plan/]
    ]
    local.server.resetLog()
    for (const [text, message] of cases) {
      await writeFile(file, text)
      const pushed = await kbsync(['push', dir, '--root-topic', root, '--plan', file], dir)
      expect(pushed.code).toBe(2)
      expect(pushed.err).toMatch(message)
    }
    const missing = await kbsync(['push', dir, '--root-topic', root, '--plan', `${file}.nothing`], dir)
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('cannot read the plan file')
    expect(local.server.requestLog()).toEqual([])
    expect(await readFile(path.join(dir, 'welcome.md'), 'utf8')).not.toContain('kb_id')
  })
})
