/**
 * Writes the navigation edits a pull planned (`navigation-plan.ts`): each
 * file read, edited by its format's pure editor (`SUMMARY.md`, MkDocs
 * `nav`), written atomically when its text changes; then the `.gitkeep` of
 * each topic folder the pull keeps (`kept-folders.ts`). The folders the
 * outlines' paths are relative to are read before planning.
 */
import path from 'node:path'
import {canEditMkdocsNav, editMkdocsNav, editSummary, parseMkdocs, type ScanResult} from '../../local/index.js'
import {readText, writeAtomic} from '../shared/document-files.js'
import type {NavigationEdits} from './navigation-plan.js'
import type {ApplyRun} from './run.js'

/** The base folder of each navigation file the scan found (relative to the scanned folder): `SUMMARY.md`'s own, MkDocs' `docs_dir`. */
export async function navigationBases(scan: ScanResult): Promise<(navFile: string) => string> {
  const bases = new Map<string, string>()
  for (const node of Object.values(scan.byPath)) {
    const file = node.navigation?.file
    if (file === undefined || bases.has(file)) continue
    const folder = path.posix.dirname(file)
    let base = folder
    if (/mkdocs\.ya?ml$/.test(file)) {
      const text = (await readText(path.join(scan.dir, file))) ?? ''
      base = path.posix.join(folder, parseMkdocs(text, file).docsDir)
    }
    bases.set(file, base === '.' ? '' : base)
  }
  return (navFile) => bases.get(navFile) ?? ''
}

/** Edits the navigation files of the run's plan; a failure is reported, and the documents stay pulled. */
export async function applyNavigation(run: ApplyRun, files: readonly NavigationEdits[]): Promise<void> {
  for (const {file, edits} of files) {
    const text = await readText(path.join(run.dir, file))
    if (text === undefined) continue
    const mkdocs = /mkdocs\.ya?ml$/.test(file)
    if (mkdocs && !canEditMkdocsNav(text)) {
      run.result.diagnostics.push({
        severity: 'warning',
        file,
        message:
          'The `nav` of this file is not a block list, which pull edits line by line: its entries are left as they are',
        hint: 'Write `nav:` as a block list (`- Title: file.md` one a line), or edit the entries by hand',
        rule: 'pull-navigation-manual'
      })
      continue
    }
    const edited = mkdocs ? editMkdocsNav(text, edits) : editSummary(text, edits)
    if (await writeAtomic(run.dir, file, edited)) run.result.written.push(file)
  }
  // The folder of a topic left without documents stays, and git keeps it (kept-folders.ts).
  for (const {file, text} of run.plan.keptFolders ?? [])
    if (await writeAtomic(run.dir, file, text)) run.result.written.push(file)
}
