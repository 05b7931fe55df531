/**
 * Info diagnostics (an HTML comment left out, ...) are never printed one
 * line each: one line per rule counts them and the documents they are in.
 */
import type {Diagnostic} from '../../local/diagnostic.js'
import {groupByRule, infoSentence} from '../../local/diagnostic-groups.js'
import {palette, type Palette} from './colours.js'
import {severityWord} from './format.js'

/** One line per rule of `infos` (all of severity `info`), in order of first appearance. */
export function infoLines(infos: readonly Diagnostic[], colours: Palette = palette(false)): string[] {
  return groupByRule(infos).map(
    (group) =>
      `${severityWord('info', colours)}: ${infoSentence(group)}${group.rule ? colours.dim(` [${group.rule}]`) : ''}`
  )
}
