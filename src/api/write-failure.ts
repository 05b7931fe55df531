/**
 * An article or topic write the platform answered with a 5xx, again after
 * one retry: the platform does that to a body it cannot read (a fence line
 * inside a fenced code block is the known case) and saves nothing. The
 * error then says so, and where in the body the likely cause is, instead of
 * looking like a network failure.
 */
import {isFenceLine} from '../../plugins/code-fence.js'
import {ApiError} from './errors.js'

/** Block quote markers at the start of a line (`> > `), which a fence may follow. */
const quotePrefix = /^(?:[ \t]*>)+/

/** A fence line: its run of backticks or tildes and what follows it. */
const fenceOpen = /^[ \t]*(`{3,}|~{3,})(.*)$/

/**
 * The line (from 1) of `body` where a fenced code block holds a line the
 * platform reads as a fence of its own (one starting with three backticks),
 * or undefined. Read the way CommonMark closes fences: a run of the same
 * character, at least as long, and nothing after it.
 */
export function nestedFenceLine(body: string): number | undefined {
  const lines = body.split(/\r?\n|\r/)
  let open: {char: string; size: number} | undefined
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!.replace(quotePrefix, '')
    const fence = fenceOpen.exec(text)
    if (!open) {
      if (fence) open = {char: fence[1]![0]!, size: fence[1]!.length}
      continue
    }
    if (fence && fence[1]![0] === open.char && fence[1]!.length >= open.size && fence[2]!.trim() === '') open = undefined
    else if (isFenceLine(text)) return index + 1
  }
  return undefined
}

/**
 * `error` as the failure of a write of `body`: a 5xx answer (after the
 * transport's one retry) becomes a non-retryable `ApiError` whose message
 * names the likely cause; anything else is returned unchanged.
 */
export function explainRefusedWrite(error: unknown, body: string | undefined): unknown {
  if (!(error instanceof ApiError) || error.status === undefined || error.status < 500 || error.status === 501) return error
  const line = body === undefined ? undefined : nestedFenceLine(body)
  const cause =
    line !== undefined
      ? `Likely cause: line ${line} of the body sent starts a fence (\`\`\`) inside a fenced code block, which the platform cannot read; write that inner fence with ~~~ (kbsync plan warns about it as kb-nested-fence).`
      : 'Nothing known to cause this (a fence inside a fenced code block) is in the body: try again later, and if it stays, split the article to find the part the platform refuses.'
  return new ApiError(`${error.message}, again after a retry: the platform answers so to a body it cannot read, and saved nothing. ${cause}`, {
    status: error.status,
    errorCode: error.errorCode,
    method: error.method,
    path: error.path,
    retryable: false
  })
}
