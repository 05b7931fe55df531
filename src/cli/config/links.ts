/**
 * Links for humans: the configured `articleUrl` template made a function the
 * dialect's converters take.
 */
import type {KbsyncConfig} from './load.js'

/**
 * The URL of an article per the config's `articleUrl` (every `{id}` replaced by
 * the URI-encoded id); `undefined` when unset, so callers keep the dialect's default.
 */
export function articleUrlOf(config: Pick<KbsyncConfig, 'articleUrl'>): ((id: string) => string) | undefined {
  const template = config.articleUrl
  if (template === undefined) return undefined
  return (id) => template.split('{id}').join(encodeURIComponent(id))
}
