/**
 * End-to-end: PlantUML and D2 blocks rendered by their programs, with fake
 * `plantuml` and `d2` scripts this file writes (neither is installed here):
 * found on PATH or named by KBSYNC_D2, run without a shell with PlantUML's
 * SANDBOX profile, their SVG uploaded and referenced; a diagram the program
 * refuses stays code with its message; without the program every block
 * stays code with one counted warning per kind; a repository config naming
 * the program is refused (exit 2) and the program never runs.
 */
import {existsSync} from 'node:fs'
import {chmod, mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterEach, beforeAll, describe, expect, it} from 'vitest'
import {push} from '../../src/sync/index.js'
import {useLocalServer} from '../e2e/local-server.js'
import {run as runCli} from '../cli/helpers.js'
import {bodyOf} from '../e2e/push-helpers.js'
import {uploadsSeen, useFolders} from './helpers.js'

const local = useLocalServer()
const newFolder = useFolders('kbsync-tools-')

/** A fake renderer: logs its arguments and PlantUML's profile variable, answers an SVG, or fails on `BROKEN`. */
function fakeTool(log: string): string {
  return [
    '#!/bin/sh',
    `printf '%s|%s\\n' "$*" "$PLANTUML_SECURITY_PROFILE" >> '${log}'`,
    'input=$(cat)',
    'case "$input" in *BROKEN*) echo "Syntax Error? (line 2)" >&2; exit 200;; esac',
    'printf \'<?xml version="1.0"?>\\n<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><text>%s</text><script>alert(1)</script></svg>\' "$(printf %s "$input" | wc -c)"',
    ''
  ].join('\n')
}

/** Writes the fake `plantuml` and `d2` into a folder of their own; their log file. */
async function fakeTools(): Promise<{bin: string; log: string}> {
  const bin = path.join(await newFolder(), 'bin')
  await mkdir(bin)
  const log = path.join(bin, 'calls.log')
  for (const name of ['plantuml', 'd2']) {
    await writeFile(path.join(bin, name), fakeTool(log))
    await chmod(path.join(bin, name), 0o755)
  }
  return {bin, log}
}

const article = [
  '# Flows',
  '',
  '```plantuml',
  'Alice -> Bob: hello',
  '```',
  '',
  '```puml',
  '@startuml',
  'Bob -> Alice: BROKEN',
  '@enduml',
  '```',
  '',
  '```d2',
  'x -> y: go',
  '```',
  ''
].join('\n')

async function remoteBody(root: string, title: string): Promise<string> {
  const [node] = (await local.client.getTree(root)).filter((item) => item.title === title)
  return bodyOf(await local.client.getItem(node!.id))
}

const savedPath = process.env.PATH
const savedD2 = process.env.KBSYNC_D2
afterEach(() => {
  process.env.PATH = savedPath
  if (savedD2 === undefined) delete process.env.KBSYNC_D2
  else process.env.KBSYNC_D2 = savedD2
})

/** PATH without any folder holding a real `plantuml` or `d2`. */
function pathWithoutTools(): string {
  return (savedPath ?? '')
    .split(path.delimiter)
    .filter((folder) => !existsSync(path.join(folder, 'plantuml')) && !existsSync(path.join(folder, 'd2')))
    .join(path.delimiter)
}

describe('PlantUML and D2 with their programs installed', () => {
  let tools: {bin: string; log: string}
  beforeAll(async () => {
    tools = await fakeTools()
  })

  it('renders each block, sandboxed; a block the program refuses stays code with its message', async () => {
    const dir = await newFolder()
    await writeFile(path.join(dir, 'flows.md'), article)
    process.env.PATH = `${tools.bin}${path.delimiter}${pathWithoutTools()}`
    process.env.KBSYNC_D2 = path.join(tools.bin, 'd2')
    const root = (await local.client.createItem({type: 'topic', title: 'Tools', parent_topic_id: null})).id
    local.server.resetLog()
    const result = await push({dir, client: local.client, rootTopicId: root})
    expect(result.status).toBe('ok')
    expect(uploadsSeen(local)).toBe(2)
    const body = await remoteBody(root, 'Flows')
    expect(body).toMatch(/^!\[Alice -> Bob: hello\]\(http[^)]+\)$/m)
    expect(body).toMatch(/^!\[x -> y: go\]\(http[^)]+\)$/m)
    expect(body).toContain('```puml\n@startuml\nBob -> Alice: BROKEN\n@enduml\n```')
    const failed = result.plan.diagnostics.filter((d) => d.rule === 'diagram-render-failed')
    expect(failed).toHaveLength(1)
    expect(failed[0]).toMatchObject({file: 'flows.md', line: 7})
    expect(failed[0]!.message).toContain('PlantUML could not render this PlantUML diagram (Syntax Error? (line 2))')
    const calls = (await readFile(tools.log, 'utf8')).trim().split('\n')
    expect(calls).toContain('-tsvg -pipe -charset UTF-8 -nometadata|SANDBOX')
    expect(calls.some((line) => line.startsWith('--bundle=false - -|'))).toBe(true)
  })
})

describe('PlantUML and D2 without their programs', () => {
  it('every block stays code, with one counted warning per kind naming what to install', async () => {
    const dir = await newFolder()
    await writeFile(path.join(dir, 'flows.md'), article)
    await writeFile(path.join(dir, 'more.md'), '# More\n\n```plantuml\nA -> B\n```\n')
    process.env.PATH = pathWithoutTools()
    const root = (await local.client.createItem({type: 'topic', title: 'No tools', parent_topic_id: null})).id
    local.server.resetLog()
    const result = await push({dir, client: local.client, rootTopicId: root})
    expect(result.status).toBe('ok')
    expect(uploadsSeen(local)).toBe(0)
    const plantuml = result.plan.diagnostics.filter((d) => d.rule === 'diagram-no-tool')
    expect(plantuml.map((d) => d.message)).toEqual([
      '3 PlantUML diagrams (this one first) kept as code blocks: `plantuml` is not installed',
      '1 D2 diagram (this one first) kept as a code block: `d2` is not installed'
    ])
    expect(plantuml[0]!.hint).toContain('KBSYNC_PLANTUML')
    expect(plantuml[1]!.hint).toContain('KBSYNC_D2')
    expect(await remoteBody(root, 'Flows')).toContain('```plantuml\nAlice -> Bob: hello\n```')
  })
})

describe('a repository config naming the program', () => {
  it.each(['plantuml', 'd2'])('"%s" is refused (exit 2) and the program never runs', async (key) => {
    const tools = await fakeTools()
    const dir = await newFolder()
    await writeFile(path.join(dir, 'flows.md'), article)
    await writeFile(path.join(dir, 'kbsync.config.json'), JSON.stringify({[key]: path.join(tools.bin, key)}))
    const run = await runCli(['plan'], {cwd: dir, env: {...local.env}})
    expect(run.code, run.err).toBe(2)
    expect(run.err).toContain(`key "${key}" is not allowed in a repository config`)
    expect(run.err).toContain(key === 'd2' ? 'KBSYNC_D2' : 'KBSYNC_PLANTUML')
    expect(existsSync(tools.log)).toBe(false)
  })
})
