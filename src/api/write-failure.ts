/**
 * An article or topic write the platform answered with a 5xx, again after
 * one retry: the platform does that to a body it cannot read (a fence line
 * inside a fenced code block is the known case) and saves nothing. The
 * error then says so, and where in the body the likely cause is, instead of
 * looking like a network failure. A 5xx that is not the platform's JSON (a
 * gateway's `502 Bad Gateway` page) is no such refusal: it says so instead.
 */
import {nestedFenceLine} from '../../plugins/code-fence.js'
import {notApiAnswer} from './answer-error.js'
import {ApiError} from './errors.js'
import {isRetryableStatus} from './retry-policy.js'

/** What the message says of `body`: the nested fence in it, guarded or not, or that none was found. */
function likelyCause(body: string | undefined): string {
  const found = body === undefined ? undefined : nestedFenceLine(body, true)
  if (!found)
    return 'Nothing known to cause this (a fence inside a fenced code block) is in the body: try again later, and if it stays, split the article to find the part the platform refuses.'
  const where = `line ${found.line} of the body sent starts a fence (\`\`\`) inside a fenced code block`
  return found.guarded
    ? `Likely cause: ${where}, written with a zero-width space before it as kbsync does so that the platform accepts it; this platform refuses even that: write the inner fence with ~~~ (kbsync plan warns about it as kb-nested-fence).`
    : `Likely cause: ${where}, which the platform cannot read; write the inner fence with ~~~ (kbsync plan warns about it as kb-nested-fence).`
}

/**
 * `error` as the failure of a write of `body`: a 5xx answer (after the
 * transport's one retry) becomes a non-retryable `ApiError` whose message
 * names the likely cause; anything else is returned unchanged.
 */
export function explainRefusedWrite(error: unknown, body: string | undefined): unknown {
  if (!(error instanceof ApiError) || error.status === undefined || !isRetryableStatus(error.status)) return error
  // A gateway's page says nothing of the body, nor whether the platform behind it saved the write.
  const why =
    error.errorCode === notApiAnswer
      ? 'whether the platform behind it saved the write is not known: run the command again once the network is back (a write the platform saved is found, not made twice)'
      : `the platform answers so to a body it cannot read, and saved nothing. ${likelyCause(body)}`
  return new ApiError(`${error.message}, again after a retry: ${why}`, {
    status: error.status,
    errorCode: error.errorCode,
    method: error.method,
    path: error.path,
    retryable: false
  })
}
