/**
 * Files are matched by their id, not by the host of their URL. The spec's
 * file URL is `…/services/kb?Id=<guid>`: the guid names the file, the origin
 * only says where it is served from now. The embedded knowledge base shows
 * its files at the port of the current start (another one when its own is
 * taken), and a record read after such a start named every file the state
 * knows at a URL it does not: the merge saw each image as changed on the
 * platform, and each was downloaded again. So each record is read with the
 * URLs the state records for its files (`recorded`): the pull compares,
 * merges and records as if the host had not moved (what push renders, with
 * the state's URLs, is what the state then says the platform holds), and
 * only a download asks for the URL the server gives now (`served`).
 */
import type {RemoteDetail} from '../shared/remote.js'
import type {PullClient} from './types.js'
import type {StateAssets} from './state-assets.js'

// The id of a download URL: the `Id` parameter of a `/services/kb` path (any host, any path before it).
const downloadId = /\/services\/kb\/?\?(?:[^#]*&)?id=([^&#]+)/i

/** What names the file at `url`: its id for a download URL (`…/services/kb?Id=<guid>`), else the URL itself. */
export function fileKey(url: string): string {
  const id = downloadId.exec(url)?.[1]
  return id === undefined ? url : `id:${decodeId(id).toLowerCase()}`
}

/** The id as written in the query (percent-encoded or not). */
function decodeId(id: string): string {
  try {
    return decodeURIComponent(id)
  } catch {
    return id
  }
}

/** The file URLs of one pull: records read with the state's URLs, downloads at the served ones. */
export interface RecordedUrls {
  /** `detail` with each file URL the state records under another host in the state's form (its `bodyHash` stays the platform's). */
  recorded(detail: RemoteDetail): RemoteDetail
  /** The URL the server gave for the file a recorded URL names (the URL itself when none was read). */
  served(url: string): string
}

/** The file URLs of a pull over the state whose files are `assets`. */
export function recordedUrls(assets: StateAssets): RecordedUrls {
  const served = new Map<string, string>()
  const recordedOf = (url: string): string | undefined => {
    const key = fileKey(url)
    if (key === url) return undefined
    const recorded = assets.urlByKey().get(key)
    return recorded === undefined || recorded === url ? undefined : recorded
  }
  return {
    recorded(detail) {
      const moved = new Map<string, string>()
      for (const file of detail.files) {
        const recorded = recordedOf(file.url)
        if (recorded !== undefined) moved.set(file.url, recorded)
      }
      if (moved.size === 0) return detail
      let body = detail.body
      for (const [url, recorded] of moved) {
        served.set(recorded, url)
        body = body.split(url).join(recorded)
      }
      const files = detail.files.map((file) => ({...file, url: moved.get(file.url) ?? file.url}))
      const attachments = Object.fromEntries(
        Object.entries(detail.attachments).map(([guid, url]) => [guid, moved.get(url) ?? url])
      )
      return {...detail, body, files, attachments}
    },
    served: (url) => served.get(url) ?? url
  }
}

/** `client` downloading each file at the URL the server gives it now. */
export function servingClient(client: PullClient, urls: Pick<RecordedUrls, 'served'>): PullClient {
  return {
    getTree: (parentTopicId) => client.getTree(parentTopicId),
    getItem: (id) => client.getItem(id),
    getPermissions: (id) => client.getPermissions(id),
    downloadFile: (url, destPath, expected) => client.downloadFile(urls.served(url), destPath, expected)
  }
}
