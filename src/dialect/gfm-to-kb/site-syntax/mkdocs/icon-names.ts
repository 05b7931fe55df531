/**
 * Which emoji stands for an icon of the sets Material for MkDocs ships
 * (`material-…`, `fontawesome-solid-…`, `octicons-…-16`, `simple-…`):
 * the table below for the common icons whose meaning an emoji clearly
 * carries (a check mark, a warning, a rocket), else the gemoji of the
 * same name (`material-dog`). Brand logos (`simple-…`,
 * `fontawesome-brands-…`) have none: nothing stands in for a logo.
 */
import {nameToEmoji} from 'gemoji'

// Icon names (their variant suffixes taken off) -> gemoji names.
const common: Record<string, string> = {
  check: 'heavy_check_mark',
  'check-all': 'heavy_check_mark',
  'check-mark': 'heavy_check_mark',
  'circle-check': 'heavy_check_mark',
  'square-check': 'heavy_check_mark',
  'checkbox-marked': 'heavy_check_mark',
  close: 'x',
  times: 'x',
  xmark: 'x',
  x: 'x',
  cancel: 'no_entry_sign',
  alert: 'warning',
  'alert-octagon': 'warning',
  'alert-decagram': 'warning',
  'exclamation-triangle': 'warning',
  'triangle-exclamation': 'warning',
  information: 'information_source',
  info: 'information_source',
  'circle-info': 'information_source',
  'info-circle': 'information_source',
  help: 'question',
  'circle-question': 'question',
  'question-circle': 'question',
  lightbulb: 'bulb',
  'lightbulb-on': 'bulb',
  'light-bulb': 'bulb',
  flame: 'fire',
  'rocket-launch': 'rocket',
  'book-open': 'book',
  'book-open-page': 'book',
  notebook: 'notebook',
  cog: 'gear',
  gears: 'gear',
  tools: 'hammer_and_wrench',
  'hammer-wrench': 'hammer_and_wrench',
  magnify: 'mag',
  search: 'mag',
  home: 'house',
  account: 'bust_in_silhouette',
  user: 'bust_in_silhouette',
  person: 'bust_in_silhouette',
  'account-group': 'busts_in_silhouette',
  users: 'busts_in_silhouette',
  people: 'busts_in_silhouette',
  'people-group': 'busts_in_silhouette',
  'lock-open': 'unlock',
  'shield-check': 'shield',
  'calendar-month': 'calendar',
  clock: 'stopwatch',
  'clock-fast': 'stopwatch',
  'clock-time-four': 'stopwatch',
  timer: 'stopwatch',
  mail: 'email',
  envelope: 'email',
  'link-variant': 'link',
  edit: 'pencil2',
  pen: 'pencil2',
  pencil: 'pencil2',
  'pen-to-square': 'pencil2',
  delete: 'wastebasket',
  trash: 'wastebasket',
  'trash-can': 'wastebasket',
  download: 'inbox_tray',
  'tray-arrow-down': 'inbox_tray',
  upload: 'outbox_tray',
  file: 'page_facing_up',
  'file-document': 'page_facing_up',
  'file-lines': 'page_facing_up',
  'file-text': 'page_facing_up',
  folder: 'file_folder',
  'file-directory': 'file_folder',
  'folder-open': 'open_file_folder',
  archive: 'package',
  box: 'package',
  tag: 'label',
  bell: 'bell',
  flag: 'triangular_flag_on_post',
  'chart-bar': 'bar_chart',
  'chart-line': 'chart_with_upwards_trend',
  graph: 'bar_chart',
  earth: 'globe_with_meridians',
  web: 'globe_with_meridians',
  globe: 'globe_with_meridians',
  translate: 'globe_with_meridians',
  laptop: 'computer',
  monitor: 'desktop_computer',
  desktop: 'desktop_computer',
  cellphone: 'iphone',
  mobile: 'iphone',
  puzzle: 'jigsaw',
  'puzzle-piece': 'jigsaw',
  'lightning-bolt': 'zap',
  bolt: 'zap',
  flash: 'zap',
  play: 'arrow_forward',
  pause: 'pause_button',
  stop: 'stop_button',
  plus: 'heavy_plus_sign',
  add: 'heavy_plus_sign',
  minus: 'heavy_minus_sign',
  'thumb-up': '+1',
  'thumbs-up': '+1',
  'thumb-down': '-1',
  'thumbs-down': '-1',
  message: 'speech_balloon',
  comment: 'speech_balloon',
  chat: 'speech_balloon',
  'comment-discussion': 'speech_balloon',
  'scale-balance': 'balance_scale',
  scale: 'balance_scale',
  'balance-scale': 'balance_scale',
  law: 'balance_scale',
  school: 'mortar_board',
  'graduation-cap': 'mortar_board',
  'mortar-board': 'mortar_board',
  pin: 'pushpin',
  thumbtack: 'pushpin',
  image: 'framed_picture',
  music: 'musical_note',
  'power-plug': 'electric_plug',
  plug: 'electric_plug',
  'map-marker': 'round_pushpin',
  location: 'round_pushpin',
  'heart-broken': 'broken_heart',
  'emoticon-happy': 'smile',
  'test-tube': 'test_tube',
  target: 'dart',
  refresh: 'arrows_counterclockwise',
  sync: 'arrows_counterclockwise',
  'hand-wave': 'wave',
  'mark-github': '',
  github: '',
  code: '',
  'code-tags': '',
  terminal: '',
  console: ''
}

// The prefixes of the icon sets; brands (logos) come with none of an emoji.
const iconSet = /^(?:material|octicons|fontawesome-(?:solid|regular)|(fontawesome-brands|simple))-(.+)$/
// Variants of one icon: its outline, its circled or boxed form, an octicon's pixel size.
const variant = /-(?:outline|circle|circle-outline|box|box-outline|bold|thick|variant|alt|sharp|fill|\d{2})$/

/** The emoji of the icon shortcode `name`: `''` for an icon with none, undefined when `name` names no icon. */
export function iconEmoji(name: string): string | undefined {
  const match = iconSet.exec(name)
  if (!match) return undefined
  if (match[1]) return ''
  // Two rounds take `-circle-outline`, `-outline-16`.
  let base = match[2]!
  for (let round = 0; round < 2; round++) {
    const found = emojiOfBase(base)
    if (found !== undefined) return found
    base = base.replace(variant, '')
  }
  return emojiOfBase(base) ?? ''
}

/** The emoji of an icon's base name by the table, then by gemoji; undefined when neither has it. */
function emojiOfBase(base: string): string | undefined {
  if (Object.hasOwn(common, base)) {
    const gemojiName = common[base]!
    return gemojiName === '' ? '' : nameToEmoji[gemojiName]
  }
  const gemojiName = base.replace(/-/g, '_')
  return Object.hasOwn(nameToEmoji, gemojiName) ? nameToEmoji[gemojiName] : undefined
}
