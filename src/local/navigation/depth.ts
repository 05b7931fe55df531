/** The one error of a navigation outline nested deeper than `maxOutlineDepth` (SUMMARY.md, mkdocs.yml). */
import {maxOutlineDepth} from '../../trust/index.js'
import type {Diagnostic} from '../diagnostic.js'

/**
 * The error of an entry at `line` of `file` (a `source` such as
 * `SUMMARY.md`) nested past `maxOutlineDepth`: the outline's readers (the
 * layout, the plan) walk it level by level, so its depth is held to the limit.
 */
export function tooDeep(file: string, line: number, source: string): Diagnostic {
  return {
    severity: 'error',
    file,
    line,
    message: `${source} line ${line} nests entries deeper than ${maxOutlineDepth} levels`,
    hint: `Flatten the navigation to at most ${maxOutlineDepth} levels`,
    rule: 'navigation-depth'
  }
}
