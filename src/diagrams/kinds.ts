/**
 * The kinds of rendered blocks: which nodes of a dialect tree are a
 * diagram or a formula to publish as the image of its rendering, and what
 * each kind is called in messages, cache files and alt texts. Pure: no
 * renderer, no files.
 */
import {inlineMathData} from '../dialect/gfm-to-kb/math.js'

/**
 * A kind of rendered source: a Mermaid, PlantUML or D2 diagram (a fenced
 * block), a display formula (`$$ ... $$`, a `math` fence) or an inline
 * formula (`$...$`).
 */
export type DiagramKind = 'mermaid' | 'plantuml' | 'd2' | 'math' | 'math-inline'

/** Every kind, in the order messages list them. */
export const diagramKinds: readonly DiagramKind[] = ['mermaid', 'plantuml', 'd2', 'math', 'math-inline']

/** The fence languages of each block kind (lowercase). */
const fenceLanguages: Record<string, DiagramKind> = {
  mermaid: 'mermaid',
  plantuml: 'plantuml',
  puml: 'plantuml',
  d2: 'd2',
  math: 'math'
}

/** A PlantUML source written in an unlabelled fence: its first line opens a diagram (`@startuml`, `@startmindmap` ...). */
const plantumlStart = /^\s*@start[a-z]+\b/

/**
 * The kind of a fenced code block (`lang` its info string's first word,
 * `value` its text), or undefined when it is code. A fence without a
 * language whose text opens with `@startuml` is PlantUML.
 */
export function codeDiagramKind(lang: string | null | undefined, value: string): DiagramKind | undefined {
  if (typeof lang === 'string' && lang !== '') return fenceLanguages[lang.toLowerCase()]
  return plantumlStart.test(value) ? 'plantuml' : undefined
}

/** The kind of a dialect node, when it is a rendered source: a fenced block, or an inline formula. */
export function nodeDiagramKind(node: {
  type: string
  lang?: string | null
  value?: string
  data?: object
}): DiagramKind | undefined {
  if (node.type === 'code') return codeDiagramKind(node.lang, node.value ?? '')
  if (node.type === 'inlineCode' && node.data !== undefined && inlineMathData in node.data) return 'math-inline'
  return undefined
}

/** How messages name one rendered source of a kind, and several. */
export const kindNames: Record<DiagramKind, [one: string, many: string]> = {
  mermaid: ['Mermaid diagram', 'Mermaid diagrams'],
  plantuml: ['PlantUML diagram', 'PlantUML diagrams'],
  d2: ['D2 diagram', 'D2 diagrams'],
  math: ['formula', 'formulas'],
  'math-inline': ['inline formula', 'inline formulas']
}

/** `count` sources of `kind`, named for a message ("1 formula", "3 PlantUML diagrams"). */
export function countOf(kind: DiagramKind, count: number): string {
  return `${count} ${kindNames[kind][count === 1 ? 0 : 1]}`
}

/** The extension of the kept source of each kind, beside its rendering. */
export const sourceExtensions: Record<DiagramKind, string> = {
  mermaid: '.mmd',
  plantuml: '.puml',
  d2: '.d2',
  math: '.tex',
  'math-inline': '.tex'
}

/** Whether `kind` is a formula (rendered in process by MathJax). */
export function isMath(kind: DiagramKind): boolean {
  return kind === 'math' || kind === 'math-inline'
}

/** The most characters of a formula's source an alt text holds. */
const maxAltLength = 200

/**
 * The alt text of the image of a source: a formula's TeX on one line
 * (whitespace runs made one space, at most 200 characters), a diagram's
 * first line that is not a comment (`flowchart LR`, `@startuml`), else
 * "diagram".
 */
export function altOf(kind: DiagramKind, source: string): string {
  if (isMath(kind)) {
    const flat = source.replace(/\s+/g, ' ').trim()
    return flat.length > maxAltLength ? flat.slice(0, maxAltLength - 1) + '…' : flat
  }
  const comment = kind === 'mermaid' ? '%%' : kind === 'plantuml' ? "'" : '#'
  const first = source
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith(comment))
  return first ?? 'diagram'
}
