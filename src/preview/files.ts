/**
 * Serves the folder's own files (images, attachments) and nothing else: no
 * `..`, no dot-entries (`.git`, `.kbsync`), no symbolic link that leads out.
 */
import {createReadStream} from 'node:fs'
import {realpath, stat} from 'node:fs/promises'
import type {ServerResponse} from 'node:http'
import path from 'node:path'

const types: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.bmp': 'image/bmp',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json'
}

/**
 * The absolute path of the file `relative` names inside `root` (itself a
 * real path), or undefined when it names none or lies outside.
 */
export async function locateFile(root: string, relative: string): Promise<string | undefined> {
  if (relative.includes('\0') || relative.includes('\\')) return undefined
  const segments = relative.split('/')
  if (segments.some((segment) => segment === '' || segment.startsWith('.') || segment === 'node_modules'))
    return undefined
  try {
    const real = await realpath(path.join(root, ...segments))
    const inside = path.relative(root, real)
    if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return undefined
    if (inside.split(path.sep).some((segment) => segment.startsWith('.'))) return undefined
    return (await stat(real)).isFile() ? real : undefined
  } catch {
    return undefined
  }
}

/** Sends the file `relative` of `root`; false (nothing sent) when there is no such file inside. */
export async function sendFile(
  root: string,
  relative: string,
  response: ServerResponse,
  headOnly: boolean
): Promise<boolean> {
  const file = await locateFile(root, relative)
  if (!file) return false
  const size = (await stat(file)).size
  response.writeHead(200, {
    'Content-Type': types[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': size,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    // A file opened on its own (an SVG, an HTML attachment) runs no script at the preview's origin.
    'Content-Security-Policy': 'sandbox'
  })
  if (headOnly) {
    response.end()
    return true
  }
  await new Promise<void>((resolve) => {
    const stream = createReadStream(file)
    stream.on('error', () => {
      response.destroy()
      resolve()
    })
    stream.on('end', resolve)
    stream.pipe(response)
  })
  return true
}
