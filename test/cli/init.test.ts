/** `kbsync init`: the files it writes, docs/ detection, refusal to overwrite, and that its config loads. */
import {mkdir, readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {loadConfig} from '../../src/cli/config.js'
import {run, tempDir} from './helpers.js'

const made: string[] = []
afterAll(async () => {
  for (const dir of made) await rm(dir, {recursive: true, force: true})
})

async function project(withDocs: boolean): Promise<string> {
  const dir = await tempDir('kbsync-init-')
  made.push(dir)
  if (withDocs) await mkdir(path.join(dir, 'docs'))
  return dir
}

describe('kbsync init', () => {
  it('detects docs/, writes a config that loads and a .kbsyncignore there', async () => {
    const cwd = await project(true)
    const result = await run(['init'], {cwd})
    expect(result.code).toBe(0)
    expect(result.out).toContain('kbsync.config.json')
    const data = JSON.parse(await readFile(path.join(cwd, 'kbsync.config.json'), 'utf8'))
    expect(data.dir).toBe('docs')
    expect(data.$comment.join('\n')).toContain('KBSYNC_TOKEN')
    expect(data).not.toHaveProperty('token')
    expect(await readFile(path.join(cwd, 'docs', '.kbsyncignore'), 'utf8')).toContain('gitignore syntax')
    const config = await loadConfig({cwd, env: {}})
    expect(config.dir).toBe(path.join(cwd, 'docs'))
    expect(config.configFile).toBe(path.join(cwd, 'kbsync.config.json'))
    expect(config.apiUrl).toBeUndefined()
  })

  it('uses the current folder without docs/, and takes --api-url and --root-topic', async () => {
    const cwd = await project(false)
    const result = await run(['init', '--api-url', 'https://api.example.com/v4', '--root-topic', 'T1'], {cwd})
    expect(result.code).toBe(0)
    const config = await loadConfig({cwd, env: {}})
    expect(config.dir).toBe(cwd)
    expect(config.apiUrl).toBe('https://api.example.com/v4')
    expect(config.rootTopic).toBe('T1')
    expect(await readFile(path.join(cwd, '.kbsyncignore'), 'utf8')).toContain('*.tmp')
  })

  it('refuses to overwrite without --force (exit 2), overwrites with it', async () => {
    const cwd = await project(true)
    await writeFile(path.join(cwd, 'kbsync.config.json'), '{"dir": "mine"}')
    const refused = await run(['init'], {cwd})
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('--force')
    expect(await readFile(path.join(cwd, 'kbsync.config.json'), 'utf8')).toBe('{"dir": "mine"}')
    const forced = await run(['init', '--force'], {cwd})
    expect(forced.code).toBe(0)
    expect(JSON.parse(await readFile(path.join(cwd, 'kbsync.config.json'), 'utf8')).dir).toBe('docs')
  })

  it('exits 2 on a missing --dir, a positional argument or a URL with credentials', async () => {
    const cwd = await project(false)
    expect((await run(['init', '--dir', 'nope'], {cwd})).code).toBe(2)
    expect((await run(['init', 'docs'], {cwd})).code).toBe(2)
    const withPassword = await run(['init', '--api-url', 'https://u:secretpw@h.example'], {cwd})
    expect(withPassword.code).toBe(2)
    expect(withPassword.err).not.toContain('secretpw')
  })
})
