/**
 * What each shortcode of Hugo and the common themes (Docsy, Hextra, Hugo
 * Book, Blowfish, Relearn) stands for on the platform: the family a name
 * belongs to, and the colour, title or label its arguments give.
 */
import {admonitionColor, admonitionColors} from '../../alerts.js'
import type {Shortcode} from './shortcodes.js'

/** What a shortcode becomes. */
export type Family =
  /** A hint block (`alert`, `note`, `callout`, `hint`, `admonition`, `notice`, Docsy `pageinfo`). */
  | 'hint'
  /** An expanding block (`details`, `expand`). */
  | 'details'
  /** A set of tabs: only its tabs remain (`tabs`, `tabpane`). */
  | 'tabs'
  /** One tab: a bold label over its content (code in a language, or Markdown). */
  | 'tab'
  /** Code in a language (`highlight`). */
  | 'code'
  /** A block whose content stays, under its title in bold when it has one (`blocks/*`, `card`, `cardpane`). */
  | 'container'
  /** Left out with its content, as the site shows nothing (`comment`). */
  | 'comment'
  /** A link target (`ref`, `relref`). */
  | 'ref'
  /** A parameter's value (`param`, Docsy's `_param`): the local scan fills those it can read. */
  | 'param'
  /** A video (`youtube`, `vimeo`). */
  | 'video'
  /** An image with its caption (`figure`, Docsy `imgproc`). */
  | 'figure'
  /** A file's content (`readfile`, `include`): resolved by the local scan, or left out here. */
  | 'file'

const families: Record<string, Family> = {
  alert: 'hint',
  note: 'hint',
  tip: 'hint',
  info: 'hint',
  warning: 'hint',
  caution: 'hint',
  important: 'hint',
  danger: 'hint',
  callout: 'hint',
  hint: 'hint',
  admonition: 'hint',
  notice: 'hint',
  pageinfo: 'hint',
  details: 'details',
  expand: 'details',
  tabs: 'tabs',
  tabpane: 'tabs',
  tab: 'tab',
  highlight: 'code',
  card: 'container',
  cardpane: 'container',
  columns: 'container',
  column: 'container',
  center: 'container',
  comment: 'comment',
  ref: 'ref',
  relref: 'ref',
  param: 'param',
  // Docsy's own: a parameter whose `{1}`, `{2}`... its further arguments fill (`local/site-data.ts`).
  _param: 'param',
  youtube: 'video',
  vimeo: 'video',
  figure: 'figure',
  imgproc: 'figure',
  readfile: 'file',
  include: 'file'
}

/** The family of a shortcode named `name`, or undefined for one kbsync does not know. */
export function familyOf(name: string): Family | undefined {
  if (name.startsWith('blocks/')) return 'container'
  return Object.hasOwn(families, name) ? families[name] : undefined
}

/** The first of the named arguments `keys` that is given, else the positional one at `position`. */
export function argument(tag: Shortcode, keys: readonly string[], position?: number): string | undefined {
  for (const key of keys) if (tag.named[key] !== undefined) return tag.named[key]
  return position === undefined ? undefined : tag.positional[position]
}

/**
 * The colour of a hint shortcode: its type from `color`/`type`/`context`, a
 * first positional argument, or its name (`{{< warning >}}`); Docsy's
 * `primary` and any name no tool defines are a note.
 */
export function hintColor(tag: Shortcode): string {
  const candidates = [tag.named.color, tag.named.type, tag.named.context, tag.named.style, tag.positional[0], tag.name]
  for (const candidate of candidates) {
    const color = candidate === undefined ? undefined : admonitionColor(candidate)
    if (color) return color
  }
  return admonitionColors.NOTE!
}

/** The title of a hint or expanding block (`title`, `summary`, `header`; Relearn `notice` takes it second). */
export function blockTitle(tag: Shortcode): string | undefined {
  const title = argument(tag, ['title', 'summary', 'header', 'heading'])
  if (title !== undefined) return title || undefined
  if (tag.name === 'notice' || tag.name === 'expand' || tag.name === 'details') {
    const positional = tag.name === 'notice' ? tag.positional[1] : tag.positional[0]
    return positional || undefined
  }
  return undefined
}

/** The arguments of a tag as written (`name="x" 3`), for messages about what was lost. */
export function argumentsText(tag: Shortcode): string {
  const named = Object.entries(tag.named).map(([key, value]) => `${key}=${JSON.stringify(value)}`)
  return [...tag.positional.map((value) => JSON.stringify(value)), ...named].join(' ')
}
