/** `--max-warnings N` (config `maxWarnings`): a run with more warnings than N fails before any write. */
import {countSeverities, type Diagnostic} from '../../local/diagnostic.js'
import {plural} from './lines.js'

/**
 * Why `list` breaks the limit (`undefined` when it does not, or when there
 * is no limit): how many warnings there are and what the limit is. Infos
 * are not warnings and never count.
 */
export function warningLimitExceeded(list: readonly Diagnostic[], limit: number | undefined): string | undefined {
  if (limit === undefined) return undefined
  const {warnings} = countSeverities(list)
  if (warnings <= limit) return undefined
  return `${plural(warnings, 'warning')}, more than the ${limit} allowed by --max-warnings (config "maxWarnings"): fix some of them (each is listed with --verbose), or raise the limit`
}
