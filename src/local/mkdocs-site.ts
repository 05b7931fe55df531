/**
 * What MkDocs' `mkdocs.yml` says about reading the pages, besides their
 * navigation (`navigation/mkdocs.ts`): where pymdownx.snippets finds its
 * files (`base_path`, one folder or a list, relative to the folder of
 * `mkdocs.yml`, which MkDocs runs in; `.` by default), and whether pages
 * are served as folders (`use_directory_urls`, true unless set false):
 * `a/page.md` at `a/page/`, so a relative URL written for the site starts
 * one level deeper than the file. Pure: text in, settings out; a file that
 * is no valid YAML gives the defaults (the navigation reports it).
 */
import {isMap, isScalar, isSeq, type Node as YamlNode} from 'yaml'
import {readYaml} from '../trust/index.js'

/** The reading settings of an MkDocs site. */
export interface MkdocsSite {
  /** The snippets' base folders, relative to the folder of `mkdocs.yml`. */
  snippetBases: string[]
  /** Whether pages are served as folders. */
  directoryUrls: boolean
}

/** Reads the reading settings of `mkdocs.yml` (see the module comment). */
export function parseMkdocsSite(text: string): MkdocsSite {
  const site: MkdocsSite = {snippetBases: ['.'], directoryUrls: true}
  const read = readYaml(text)
  if (!read.ok || !isMap(read.document.contents)) return site
  const contents = read.document.contents
  const directory = contents.get('use_directory_urls', true)
  if (isScalar(directory) && directory.value === false) site.directoryUrls = false
  const extensions = contents.get('markdown_extensions', true) as YamlNode | undefined
  if (!isSeq(extensions)) return site
  for (const item of extensions.items as YamlNode[]) {
    if (!isMap(item) || item.items.length !== 1) continue
    const pair = item.items[0]!
    if (!isScalar(pair.key) || pair.key.value !== 'pymdownx.snippets' || !isMap(pair.value)) continue
    const base = (pair.value as {get(key: string, keep: true): unknown}).get('base_path', true)
    const values = isSeq(base) ? (base.items as unknown[]) : [base]
    const bases = values.flatMap((value) =>
      isScalar(value) && typeof value.value === 'string' && value.value.trim() !== '' ? [value.value.trim()] : []
    )
    if (bases.length > 0) site.snippetBases = bases
  }
  return site
}
