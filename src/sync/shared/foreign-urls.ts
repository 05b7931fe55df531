/**
 * The guard that keeps one knowledge base's addresses out of another's
 * bodies. A body sent to a target may carry a file download URL
 * (`…/services/kb?Id=<guid>`, the spec's form) only of that target, and no
 * URL at all at the origin of another target the state knows: such a URL
 * is a broken image or a link into a server the readers of this one may not
 * reach (the embedded knowledge base's loopback port, staging seen from
 * production). The state per target makes them impossible by construction;
 * this is the last check on every body before it is written, and the same
 * rule run over the sources at plan time, so a URL written by hand is
 * refused with its file and line before anything is written.
 */
import {originOf, type Diagnostic, type ScanResult, type SyncState} from '../../local/index.js'
import type {SyncClient} from './types.js'

// An absolute http(s) URL as bodies and sources carry it: up to a space, a quote, a bracket or a tag's end.
const urlPattern = /https?:\/\/[^\s"'<>()[\]\\`]+/gi

/** Whether `url` has the shape of a file download URL (`/services/kb?Id=<guid>`, any origin, any path before it). */
export function isDownloadUrl(url: URL): boolean {
  if (!/\/services\/kb\/?$/i.test(url.pathname)) return false
  for (const name of url.searchParams.keys()) if (name.toLowerCase() === 'id') return true
  return false
}

/** What a target owns and what the state knows of the others, as origins. */
export interface UrlGuard {
  /** Whether `origin` is the target's (its API, its files, a file URL it gave). */
  own(origin: string): boolean
  /** The label of the other target at `origin`, if one is known there. */
  otherAt(origin: string): string | undefined
}

/**
 * The guard of the target `state` describes. Its origins are read live
 * (file URLs recorded during the run count once recorded): the target's
 * API and files origins, and those of every file URL its state records;
 * the others' are those of every other target (and of a state kept aside).
 */
export function urlGuard(state: SyncState, extra: Iterable<string> = []): UrlGuard {
  const fixed = new Set([...(state.target?.origins ?? []), ...extra])
  const others = new Map<string, string>()
  const note = (origin: string | undefined, label: string) => {
    if (origin !== undefined && !others.has(origin)) others.set(origin, label)
  }
  for (const other of Object.values(state.others ?? {})) {
    const label = other.target?.label ?? 'another knowledge base'
    for (const origin of other.target?.origins ?? []) note(origin, label)
    for (const asset of Object.values(other.assets ?? {})) if (asset.url) note(originOf(asset.url), label)
  }
  const aside = (state.aside as {assets?: Record<string, {url?: string}>} | undefined)?.assets
  for (const asset of Object.values(aside ?? {}))
    if (asset?.url) note(originOf(asset.url), 'the knowledge base of an older state')
  let recorded: Set<string> | undefined
  let recordedCount = -1
  const own = (origin: string) => {
    if (fixed.has(origin)) return true
    const assets = Object.values(state.assets)
    if (recorded === undefined || recordedCount !== assets.length) {
      recorded = new Set(
        assets.map((asset) => (asset.url ? originOf(asset.url) : undefined)).filter((o) => o !== undefined)
      )
      recordedCount = assets.length
    }
    return recorded.has(origin)
  }
  return {own, otherAt: (origin) => (own(origin) ? undefined : others.get(origin))}
}

/** A URL of a text the guard refuses, and why. */
export interface ForeignUrl {
  url: string
  /** 0-based offset in the text. */
  index: number
  reason: string
}

/** The URLs of `text` that `guard` refuses: download URLs not of the target, and any URL at another target's origin. */
export function foreignUrls(text: string, guard: UrlGuard): ForeignUrl[] {
  if (!text.includes('://')) return []
  const found: ForeignUrl[] = []
  for (const match of text.matchAll(urlPattern)) {
    let url: URL
    try {
      url = new URL(match[0])
    } catch {
      continue
    }
    if (guard.own(url.origin)) continue
    const other = guard.otherAt(url.origin)
    if (other !== undefined) found.push({url: match[0], index: match.index, reason: `an address of ${other}`})
    else if (isDownloadUrl(url))
      found.push({url: match[0], index: match.index, reason: 'a file download URL of another server'})
  }
  return found
}

/** Thrown when a body about to be written carries a URL of another knowledge base. */
export class ForeignUrlError extends Error {
  constructor(what: string, found: ForeignUrl, target: string) {
    super(
      `refused to write ${what}: its body holds ${found.url}, ${found.reason}, not of ${target}; nothing was sent for it. ` +
        'Use a relative path to the file in the folder (it is uploaded to this knowledge base), or remove the URL'
    )
    this.name = 'ForeignUrlError'
  }
}

/**
 * `client` whose creates and updates first pass their body through `guard`:
 * a body with a URL of another knowledge base is refused (a
 * `ForeignUrlError`), and nothing is sent for it.
 */
export function guardedClient(client: SyncClient, guard: UrlGuard, target: string): SyncClient {
  const check = (what: string, body: string | undefined) => {
    const found = body === undefined ? undefined : foreignUrls(body, guard)[0]
    if (found) throw new ForeignUrlError(what, found, target)
  }
  return {
    getItem: (id) => client.getItem(id),
    createItem: (input) => {
      check(`"${input.title}"`, input.body)
      return client.createItem(input)
    },
    updateItem: (id, input) => {
      check(input.title !== undefined ? `"${input.title}" (${id})` : `item ${id}`, input.body)
      return client.updateItem(id, input)
    },
    deleteItem: (id, options) => client.deleteItem(id, options),
    getTree: (parentTopicId) => client.getTree(parentTopicId),
    ...(client.getChildren ? {getChildren: (parentTopicId) => client.getChildren!(parentTopicId)} : {}),
    getPermissions: (id) => client.getPermissions(id),
    setPermissions: (id, input) => client.setPermissions(id, input),
    uploadFile: (path, options) => client.uploadFile(path, options)
  }
}

/**
 * The same rule over the sources, at plan time: a URL of another knowledge
 * base written in a file is an error at its file and line, so the plan is
 * blocked and nothing is written.
 */
export function foreignUrlDiagnostics(scan: ScanResult, guard: UrlGuard, target: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = []
  for (const node of Object.values(scan.byPath)) {
    const source = 'source' in node ? node.source : undefined
    if (typeof source !== 'string') continue
    for (const found of foreignUrls(source, guard)) {
      diagnostics.push({
        severity: 'error',
        file: node.file ?? node.path,
        line: source.slice(0, found.index).split('\n').length,
        message: `${found.url} is ${found.reason}, not of ${target}: it would be published as a broken link`,
        hint: 'Link the file by its relative path in the folder (it is then uploaded to this knowledge base), or remove the URL',
        rule: 'foreign-url'
      })
    }
  }
  return diagnostics
}
