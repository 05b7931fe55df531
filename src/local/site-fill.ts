/**
 * The values a body's templates print, filled in as the scan reads the
 * bodies (`site-data.ts`): the site's configuration is read once, and the
 * front matter of each `_index.md` above a page once per folder, and only
 * when a body prints a value.
 */
import path from 'node:path'
import {ReadRefusedError, utf8Text} from '../trust/read.js'
import type {PublishSource} from '../trust/publishable.js'
import {cascadedValues, cascadeEntries, frontMatterData, pageOf, type CascadeEntry} from './hugo-cascade.js'
import {fillSiteValues, frontMatterValues, loadSiteValues, type FilledBody, type SiteValues} from './site-data.js'

/** The most bytes of an `_index.md` read for its front matter. */
const maxIndexBytes = 1048576

/** Fills in the values the bodies of one scan print. */
export class SiteFill {
  private site: Promise<SiteValues> | undefined
  private readonly folders = new Map<string, Promise<CascadeEntry[]>>()

  /** `root` is the synced folder (absolute), `top` the repository root (or `root`): the configuration is found between. */
  constructor(
    private readonly source: PublishSource,
    private readonly root: string,
    private readonly top: string
  ) {}

  /** `body` of `file` (relative to the root) with the values it prints filled in; `frontMatter` is its YAML. */
  async fill(body: string, file: string, frontMatter: string): Promise<FilledBody> {
    const site = await (this.site ??= loadSiteValues(this.source, this.root, this.top))
    const data = frontMatterValues(frontMatter)
    const absolute = path.join(this.root, file)
    const {page, folders} = pageOf(absolute, this.root, site)
    // A section's own `_index.md` is the page itself: its cascade is `data`'s.
    const above = folders.filter((folder) => path.join(folder, '_index.md') !== absolute)
    const inherited = await Promise.all(above.map((folder) => this.cascadeOf(folder)))
    const cascaded = cascadedValues(page, cascadeEntries(data), inherited, site)
    return fillSiteValues(body, {data, cascaded}, site)
  }

  /** The cascade of the `_index.md` of `folder` (none when it has none, or it cannot be read). */
  private cascadeOf(folder: string): Promise<CascadeEntry[]> {
    let entries = this.folders.get(folder)
    if (!entries) {
      entries = this.readCascade(path.join(folder, '_index.md'))
      this.folders.set(folder, entries)
    }
    return entries
  }

  private async readCascade(file: string): Promise<CascadeEntry[]> {
    try {
      return cascadeEntries(frontMatterData(utf8Text(await this.source.read(file, maxIndexBytes))))
    } catch (error) {
      if (error instanceof ReadRefusedError) return []
      throw error
    }
  }
}
