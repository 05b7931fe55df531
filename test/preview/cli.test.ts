/**
 * `kbsync preview` as a user runs it: the built CLI serves the folder until
 * it is told to stop.
 */
import {spawn} from 'node:child_process'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {openCommand} from '../../src/preview/index.js'
import {fixtureDir, repoRoot} from './helpers.js'

const bin = path.join(repoRoot, 'dist/src/cli/bin.js')

describe('kbsync preview', () => {
  it('serves the folder on 127.0.0.1 and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'preview', fixtureDir, '--port', '0'], {stdio: ['ignore', 'pipe', 'pipe']})
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = ''
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString()
          const match = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)
          if (match) resolve(match[1]!)
        })
        child.stderr.on('data', (chunk: Buffer) => reject(new Error(chunk.toString())))
        child.once('exit', (code) => reject(new Error(`exited with ${code} before listening: ${output}`)))
      })
      const response = await fetch(url + 'a/welcome.md')
      expect(response.status).toBe(200)
      expect(await response.text()).toContain('<h1 class="kb-page-title">Welcome</h1>')
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    }
  })

  it('rejects a port that is no number with exit code 2', async () => {
    const child = spawn(process.execPath, [bin, 'preview', fixtureDir, '--port', 'http'], {stdio: ['ignore', 'pipe', 'pipe']})
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(2)
    expect(stderr).toContain('--port')
  })

  it('rejects a folder that does not exist with exit code 2', async () => {
    const child = spawn(process.execPath, [bin, 'preview', path.join(fixtureDir, 'no-such-folder')], {stdio: ['ignore', 'pipe', 'pipe']})
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(2)
    expect(stderr).toMatch(/does not exist|is not a folder/)
  })

  it('opens the browser with the platform\'s opener', () => {
    expect(openCommand('http://127.0.0.1:1/', 'linux')).toEqual({command: 'xdg-open', args: ['http://127.0.0.1:1/']})
    expect(openCommand('http://127.0.0.1:1/', 'darwin')).toEqual({command: 'open', args: ['http://127.0.0.1:1/']})
    expect(openCommand('http://127.0.0.1:1/', 'win32').command).toBe('cmd')
  })
})
