/** `kbProcessor`: a frozen unified processor of the dialect. */
import remarkParse from 'remark-parse'
import remarkStringify from 'remark-stringify'
import {unified} from 'unified'
import {canonicalOptions, remarkKb} from '../../plugins/index.js'

/**
 * A frozen unified processor: remark-parse + `remarkKb` + remark-stringify
 * with the canonical options. Parse problems appear on the file's messages
 * after `process`/`run`.
 */
export function kbProcessor() {
  return unified().use(remarkParse).use(remarkKb).use(remarkStringify, canonicalOptions).freeze()
}
