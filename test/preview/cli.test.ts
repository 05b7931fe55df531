/**
 * `kbsync preview` as a user runs it: the built CLI serves the folder until
 * it is told to stop.
 */
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {chmod, mkdir, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {openCommand} from '../../src/preview/index.js'
import {waitFor} from '../watch/helpers.js'
import {fixtureDir, scratchCopy} from './helpers.js'
import {builtCli} from '../built.js'

const bin = builtCli

describe('kbsync preview', () => {
  it('serves the folder on 127.0.0.1 and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'preview', fixtureDir, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
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
      expect(await response.text()).toContain('<h1 class="kb-page-title" id="user-content-welcome">Welcome</h1>')
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    }
  })

  it('scans as plan does with the config: its ignore patterns and its link options', async () => {
    const scratch = await scratchCopy()
    const parent = path.dirname(scratch.dir)
    await writeFile(
      path.join(parent, 'kbsync.config.json'),
      JSON.stringify({dir: 'docs', ignore: ['drafts/**'], brokenLinks: 'warn'})
    )
    await mkdir(path.join(scratch.dir, 'drafts'))
    await writeFile(path.join(scratch.dir, 'drafts/secret.md'), '# Secret\n\nNot yet.\n')
    await writeFile(path.join(scratch.dir, 'broken.md'), '# Broken\n\nSee [the gone page](gone.md).\n')
    const child = spawn(process.execPath, [bin, 'preview', '--port', '0'], {
      cwd: parent,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    try {
      const url = await waitFor(
        'the preview to listen',
        () => /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1],
        10_000
      )
      expect((await fetch(url + 'a/drafts/secret.md')).status).toBe(404)
      const page = await (await fetch(url + 'a/broken.md')).text()
      expect(page).toMatch(/<li class="kb-diagnostic kb-diagnostic-warning">[^]*missing-link-target/)
      expect(page).not.toContain('<li class="kb-diagnostic kb-diagnostic-error">')
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
      await scratch.remove()
    }
  })

  it('refuses a site root that is no folder, as plan does', async () => {
    const scratch = await scratchCopy()
    const parent = path.dirname(scratch.dir)
    await writeFile(path.join(parent, 'kbsync.config.json'), JSON.stringify({dir: 'docs', siteRoot: 'statc'}))
    const child = spawn(process.execPath, [bin, 'preview', '--port', '0'], {
      cwd: parent,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let err = ''
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    await scratch.remove()
    expect(code).toBe(2)
    expect(err).toContain('the site root')
    expect(err).toContain('is not a folder')
  })

  it('serves, warns once per link and reloads on a save in a folder with symbolic link loops and an unreadable folder', async () => {
    const scratch = await scratchCopy()
    await symlink('l2', path.join(scratch.dir, 'l1'))
    await symlink('l1', path.join(scratch.dir, 'l2'))
    await symlink('.', path.join(scratch.dir, 'self'))
    await mkdir(path.join(scratch.dir, 'guides/locked'))
    await writeFile(path.join(scratch.dir, 'guides/locked/hidden.md'), '# Hidden\n')
    // Root reads a folder of mode 000 all the same: the warning about it is only asserted where permissions bite.
    const permissionsBite = process.getuid?.() !== 0
    await chmod(path.join(scratch.dir, 'guides/locked'), 0o000)
    const child: ChildProcessWithoutNullStreams = spawn(
      process.execPath,
      [bin, 'preview', scratch.dir, '--port', '0'],
      {stdio: 'pipe'}
    )
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    try {
      const url = await waitFor(
        'the preview to listen',
        () => /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1],
        10_000
      ).catch((error: Error) => {
        throw new Error(`${error.message}\nstdout: ${out}\nstderr: ${err}`)
      })
      const page = await fetch(url + 'a/welcome.md')
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('<h1 class="kb-page-title" id="user-content-welcome">Welcome</h1>')

      await writeFile(path.join(scratch.dir, 'welcome.md'), '# Welcome\n\nSaved beside the loops.\n')
      await waitFor('the save to be picked up', () => /updated welcome\.md/.test(out), 5000)
      expect(await (await fetch(url + 'a/welcome.md')).text()).toContain('Saved beside the loops.')
      await writeFile(path.join(scratch.dir, 'guides/install.md'), '# Install\n\nSaved again.\n')
      await waitFor('the second save', () => /updated guides\/install\.md/.test(out), 5000)

      for (const link of ['l1', 'l2', 'self'])
        expect(err.match(new RegExp(`^${link}: warning: .*symbolic link`, 'gim')) ?? [], err).toHaveLength(1)
      if (permissionsBite) expect(err.match(/^guides\/locked: error: .*cannot be read/gim) ?? [], err).toHaveLength(1)
      expect(err).not.toMatch(/ELOOP|\n\s+at /)
    } finally {
      const exited =
        child.exitCode ?? child.signalCode ?? new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await chmod(path.join(scratch.dir, 'guides/locked'), 0o755)
      await scratch.remove()
      expect(await exited, err).toBe(0)
    }
  }, 20_000)

  it.skipIf(process.getuid?.() === 0)(
    'starts on a folder with a file it may not read, and says which on the page',
    async () => {
      const scratch = await scratchCopy()
      await writeFile(path.join(scratch.dir, 'secret.md'), '# Secret\n')
      await chmod(path.join(scratch.dir, 'secret.md'), 0o000)
      const child = spawn(process.execPath, [bin, 'preview', scratch.dir, '--port', '0'], {stdio: 'pipe'})
      let out = ''
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
      try {
        const url = await waitFor(
          'the preview to listen',
          () => /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1],
          10_000
        )
        expect(out).toMatch(/could not read the folder: .*secret\.md/)
        expect(await (await fetch(url)).text()).toMatch(/The folder could not be read: .*secret\.md/)
      } finally {
        const exited =
          child.exitCode ?? child.signalCode ?? new Promise<number | null>((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await scratch.remove()
        expect(await exited).toBe(0)
      }
    }
  )

  it('rejects a port that is no number with exit code 2', async () => {
    const child = spawn(process.execPath, [bin, 'preview', fixtureDir, '--port', 'http'], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(2)
    expect(stderr).toContain('--port')
  })

  it('rejects a folder that does not exist with exit code 2', async () => {
    const child = spawn(process.execPath, [bin, 'preview', path.join(fixtureDir, 'no-such-folder')], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(2)
    expect(stderr).toMatch(/does not exist|is not a folder/)
  })

  it("opens the browser with the platform's opener", () => {
    expect(openCommand('http://127.0.0.1:1/', 'linux')).toEqual({command: 'xdg-open', args: ['http://127.0.0.1:1/']})
    expect(openCommand('http://127.0.0.1:1/', 'darwin')).toEqual({command: 'open', args: ['http://127.0.0.1:1/']})
    expect(openCommand('http://127.0.0.1:1/', 'win32').command).toBe('cmd')
  })
})
