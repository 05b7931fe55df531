/**
 * Opens a URL in the default browser (`--open`): `open` on macOS, `start`
 * on Windows, `xdg-open` elsewhere. Failing to open is not fatal.
 */
import {spawn} from 'node:child_process'

/** The command that opens `url` on `platform`. */
export function openCommand(url: string, platform: string = process.platform): {command: string; args: string[]} {
  if (platform === 'darwin') return {command: 'open', args: [url]}
  // `start` is a shell builtin; its first quoted argument is the window title.
  if (platform === 'win32') return {command: 'cmd', args: ['/c', 'start', '""', url]}
  return {command: 'xdg-open', args: [url]}
}

/** Opens `url` in the default browser; resolves to an error message when that failed. */
export function openBrowser(url: string): Promise<string | undefined> {
  const {command, args} = openCommand(url)
  return new Promise((resolve) => {
    const child = spawn(command, args, {stdio: 'ignore', detached: true})
    child.once('error', (error) => resolve(`could not open a browser (${command}: ${error.message})`))
    child.once('spawn', () => {
      child.unref()
      resolve(undefined)
    })
  })
}
