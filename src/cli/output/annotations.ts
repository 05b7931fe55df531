/**
 * GitHub Actions workflow commands for diagnostics:
 * `::error file=F,line=L,col=C,title=T::message`.
 */
import path from 'node:path'
import type {Diagnostic} from '../../local/diagnostic.js'
import {escapeControls} from '../../trust/index.js'

/** Escapes a command's message: `%`, CR and LF (as the runner's toolkit does). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/**
 * A command's message from any text: escaped as the toolkit escapes it (a
 * line break is `%0A`, shown as one in the annotation), and every other
 * control character shown escaped (`\x1b`), as on the terminal.
 */
export function annotationData(text: string): string {
  return escapeControls(escapeData(text))
}

/** Escapes a property value: as data, plus `:` and `,` which delimit properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/** Options of `annotation`. */
export interface AnnotationOptions {
  /** The synced folder (absolute); diagnostic paths are relative to it. */
  dir?: string
  /** The repository checkout (`GITHUB_WORKSPACE`): annotation paths are made relative to it so GitHub can place them. */
  workspace?: string
}

/** The path GitHub should show for a diagnostic's file. */
export function annotationPath(file: string, options: AnnotationOptions): string {
  if (!options.dir) return file
  const absolute = path.resolve(options.dir, file)
  const base = options.workspace ? path.resolve(options.workspace) : undefined
  const relative = base ? path.relative(base, absolute) : absolute
  // Outside the workspace GitHub cannot place it; the folder-relative path is still informative.
  return (relative.startsWith('..') ? file : relative).split(path.sep).join('/')
}

/**
 * One workflow command line for a diagnostic (without the newline). Every
 * field is escaped as the toolkit escapes it (`%`, CR, LF; in properties `:`
 * and `,` too), so no repository text can end the command or start another;
 * other control characters are shown escaped (`annotationData`). The file
 * keeps its exact name so GitHub can place it.
 */
export function annotation(d: Diagnostic, options: AnnotationOptions = {}): string {
  const properties: string[] = []
  if (d.file) properties.push(`file=${escapeProperty(annotationPath(d.file, options))}`)
  if (d.file && d.line) properties.push(`line=${d.line}`)
  if (d.file && d.line && d.column) properties.push(`col=${d.column}`)
  properties.push(`title=${escapeProperty(d.rule ? `kbsync ${d.rule}` : 'kbsync')}`)
  const message = d.hint ? `${d.message} (${d.hint})` : d.message
  // The runner's levels are error, warning and notice.
  const level = d.severity === 'info' ? 'notice' : d.severity
  return `::${level} ${properties.join(',')}::${annotationData(message)}`
}

/** Workflow commands per rule: the runner shows only the first few of a step, so each rule gets at most this many. */
export const annotationsPerRule = 10

/**
 * The diagnostics to annotate: errors first, then warnings, at most
 * `perRule` of each rule (infos never: they are counted in the step
 * summary). The rest are counted in the step summary instead.
 */
export function annotated(list: readonly Diagnostic[], perRule = annotationsPerRule): Diagnostic[] {
  const ordered = [...list.filter((d) => d.severity === 'error'), ...list.filter((d) => d.severity === 'warning')]
  const used = new Map<string, number>()
  return ordered.filter((d) => {
    const n = used.get(d.rule ?? '') ?? 0
    used.set(d.rule ?? '', n + 1)
    return n < perRule
  })
}
