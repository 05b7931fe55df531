/**
 * A table the platform changed only in some rows (same columns, alignment
 * and number of rows): each changed row's line is replaced, the author's
 * other rows and their padding stay.
 */
import type {Root, RootContent, Table} from 'mdast'
import {blockKey, rangeOf} from './blocks.js'
import type {Edit} from './splice.js'

/**
 * The edits of the changed rows of a table, or undefined when the tables
 * differ otherwise (or a row has no line of its own). `toAuthor` writes a
 * root; a row is written under its table's header and read off the third
 * line.
 */
export function tableRowEdits(
  source: string,
  starts: readonly number[],
  pair: {base: RootContent; remote: RootContent},
  toAuthor: (blocks: Root) => string
): Edit[] | undefined {
  const {base, remote} = pair
  if (base.type !== 'table' || remote.type !== 'table') return undefined
  if (base.children.length !== remote.children.length || JSON.stringify(base.align) !== JSON.stringify(remote.align))
    return undefined
  const key = (table: Table, index: number): string => blockKey({...table, children: [table.children[index]!]})
  if (key(base, 0) !== key(remote, 0)) return undefined
  const edits: Edit[] = []
  for (let index = 1; index < base.children.length; index++) {
    if (key(base, index) === key(remote, index)) continue
    const row = base.children[index]!
    const range = rangeOf(row, source, starts)
    if (!range || range.startLine !== range.endLine) return undefined
    const written = toAuthor({
      type: 'root',
      children: [{...remote, children: [remote.children[0]!, remote.children[index]!]}]
    })
    const line = written.split('\n')[2]
    if (!line) return undefined
    edits.push({start: range.start, end: range.end, text: line})
  }
  return edits
}
