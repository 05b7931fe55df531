/**
 * GitBook's blocks, which a space synced with git writes as Liquid tags,
 * made what GitBook shows (the Liquid pass, `liquid.ts`, hands them here):
 * `{% hint style="…" %}` is a hint block of its style's colour;
 * `{% tab title="…" %}` a bold label over the tab's content;
 * `{% embed url="…" %}` a link to the page it embeds, its caption after;
 * `{% code title="…" %}` the file name in bold over the code. The wrappers
 * `{% tabs %}`, `{% content-ref %}`, `{% stepper %}`/`{% step %}`,
 * `{% columns %}`/`{% column %}` and `{% code %}` go; their content stays.
 */
import {admonitionColor, admonitionColors} from '../alerts.js'
import {closeTag, openTag} from './lines.js'
import type {Output} from './hugo/output.js'

const wrappers = new Set(['tabs', 'content-ref', 'stepper', 'step', 'columns', 'column', 'updates', 'update'])

// A named argument: `key="value"` or `key='value'`.
const namedArgument = /([\w-]+)=(?:"([^"]*)"|'([^']*)')/g

/** The named arguments of a tag (`style="info" title="x"`). */
function argumentsOf(args: string): Map<string, string> {
  const named = new Map<string, string>()
  for (const match of args.matchAll(namedArgument)) named.set(match[1]!, match[2] ?? match[3] ?? '')
  return named
}

/**
 * Writes what the GitBook tag `tag`, on the line at `index` of `lines`,
 * stands for to `out`; answers false when it is no GitBook tag (or a hint
 * never closed), which the Liquid pass then handles as any other.
 */
export function writeGitbookTag(
  out: Output,
  {name, args}: {name: string; args: string},
  lines: readonly string[],
  index: number
): boolean {
  const ending = /^end([\w-]+)$/.exec(name)?.[1]
  const base = ending ?? name
  if (base !== 'hint' && base !== 'tab' && base !== 'embed' && base !== 'code' && !wrappers.has(base)) return false
  if (ending) {
    if (ending === 'hint') out.block(closeTag('hintBlock'))
    if (ending !== 'tabs' && ending !== 'embed') out.blank()
    return true
  }
  const named = argumentsOf(args)
  // A tab named otherwise (jekyll-tabs' `{% tab set Label %}`) is not GitBook's: the Liquid pass reports it.
  if (name === 'tab' && !named.get('title') && args.trim() !== '') return false
  if (name === 'hint' && lastLineWith(lines, 'endhint') <= index) return false
  out.blank()
  if (name === 'hint') {
    const style = named.get('style') ?? 'info'
    out.block(openTag('hintBlock', admonitionColor(style) ?? admonitionColors.INFO!))
    out.blank()
  } else if ((name === 'tab' || name === 'code') && named.get('title')) {
    out.block(`**${named.get('title')!.replace(/\*\*/g, '').trim()}**`)
    out.blank()
  } else if (name === 'embed' && named.get('url')) {
    const caption = named.get('caption')
    out.block(`<${named.get('url')!}>${caption ? ` ${caption}` : ''}`)
    out.blank()
  }
  return true
}

const lastLines = new WeakMap<readonly string[], Map<string, number>>()

/** The index of the last of `lines` holding `text` (-1 for none), found once per document and text. */
function lastLineWith(lines: readonly string[], text: string): number {
  const known = lastLines.get(lines) ?? new Map<string, number>()
  lastLines.set(lines, known)
  if (!known.has(text))
    known.set(
      text,
      lines.findLastIndex((line) => line.includes(text))
    )
  return known.get(text)!
}
