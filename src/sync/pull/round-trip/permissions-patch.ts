/**
 * An article's permissions changed on the platform, written into its front
 * matter: the `permissions` block is replaced (or added at the end of the
 * front matter, in a folder that manages permissions), every other line of
 * the front matter and the body kept as it is.
 */
import {frontMatterFence, type LocalPermissions} from '../../../local/index.js'

const permissionsKey = /^permissions[ \t]*:/

/** The front matter lines of `permissions`, as pull writes a new file's. */
function permissionsLines(permissions: LocalPermissions): string[] {
  return [
    'permissions:',
    `  readers: [${permissions.readers.join(', ')}]`,
    `  editors: [${permissions.editors.join(', ')}]`
  ]
}

/**
 * `text` (LF line ends) with the YAML front matter key `permissions` set to
 * `permissions`; added when missing only with `add` (a front matter is made
 * when the file has none). Undefined when the file's front matter is not
 * YAML (TOML: left alone) or it has none and `add` is false.
 */
export function patchPermissions(text: string, permissions: LocalPermissions, add: boolean): string | undefined {
  const lines = text.split('\n')
  // The block may open after blank lines, as Astro and Hugo read it.
  const first = Math.max(0, frontMatterFence(text))
  if (lines[first]?.trimEnd() !== '---') {
    if (!add || lines[0]?.trimEnd() === '+++') return undefined
    return ['---', ...permissionsLines(permissions), '---', '', text].join('\n')
  }
  const close = lines.findIndex((line, index) => index > first && line.trimEnd() === '---')
  if (close === -1) return undefined
  const start = lines.findIndex((line, index) => index > first && index < close && permissionsKey.test(line))
  if (start === -1) {
    if (!add) return undefined
    lines.splice(close, 0, ...permissionsLines(permissions))
    return lines.join('\n')
  }
  // The block goes on over the indented (or list) lines after the key.
  let end = start + 1
  while (end < close && /^(?:[ \t]+\S|[ \t]*-)/.test(lines[end]!)) end++
  lines.splice(start, end - start, ...permissionsLines(permissions))
  return lines.join('\n')
}
