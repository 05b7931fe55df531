/**
 * Info diagnostics (an HTML comment left out, ...) are never printed one
 * line each: one line per rule counts them and the documents they are in.
 */
import type {Diagnostic} from '../../local/diagnostic.js'
import {palette, type Palette} from './colours.js'
import {severityWord} from './format.js'
import {groupByRule} from './group.js'
import {plural} from './lines.js'

/** The sentence of a rule known to give infos, from its count and its number of documents. */
type Sentence = (count: number, documents: number) => string

const sentences: Record<string, Sentence> = {
  'kb-html-comment': (count, documents) =>
    `${plural(count, 'HTML comment')} left out${documents > 0 ? ` of ${plural(documents, 'document')}` : ''} (the platform shows none)`
}

/** One line per rule of `infos` (all of severity `info`), in order of first appearance. */
export function infoLines(infos: readonly Diagnostic[], colours: Palette = palette(false)): string[] {
  return groupByRule(infos).map((group) => {
    const sentence = sentences[group.rule]
    const count = group.items.length
    const documents = group.files.length
    const text = sentence
      ? sentence(count, documents)
      : `${group.items[0]!.message}${count > 1 ? ` (×${count}${documents > 0 ? ` in ${plural(documents, 'document')}` : ''})` : ''}`
    return `${severityWord('info', colours)}: ${text}${group.rule ? colours.dim(` [${group.rule}]`) : ''}`
  })
}
