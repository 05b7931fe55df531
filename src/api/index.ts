/**
 * The platform's API client: `KbClient`, its options, typed errors and
 * events. See `docs/api-client.md`.
 */
export {KbClient} from './client.js'
export {ApiError, AuthError, NetworkError} from './errors.js'
export {redact} from './redact.js'
export type {SafeCause} from './errors.js'
export {formatClientEvent} from './events.js'
export type {ClientEvent, ClientStats} from './events.js'
export {DEFAULT_ACCOUNTS_URL, DEFAULT_API_URL, DEFAULT_FILES_URL, optionsFromEnv} from './options.js'
export type {ClientOptions} from './options.js'
export {foreignDownloadValues, shownUrl} from './download-access.js'
export {pageInPlaceOf} from './download-check.js'
export type {ExpectedFile} from './download-check.js'
export type {ForeignDownloads} from './download-access.js'
export {backoffMs, parseRetryAfter} from './retry-policy.js'
export {isTitleHeading, withoutTitleHeading} from './title-heading.js'
export type * from './types.js'
