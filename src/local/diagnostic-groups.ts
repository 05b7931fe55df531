/**
 * Diagnostics gathered by rule, for every view that sums them up (the
 * terminal, the step summary, the JSON counts, the preview's problems
 * panel): one group per rule and severity, in order of first appearance,
 * with its count, its files and, for infos, the one sentence that says them.
 */
import type {Diagnostic, Severity} from './diagnostic.js'

/** The diagnostics of one rule and severity. */
export interface RuleGroup {
  /** The rule, or `''` for diagnostics that name none. */
  rule: string
  severity: Severity
  /** The diagnostics of the group, in the order they came. */
  items: Diagnostic[]
  /** The distinct files they name, in order of first appearance. */
  files: string[]
}

/** Groups `list` by rule and severity, groups and items in order of first appearance. */
export function groupByRule(list: readonly Diagnostic[]): RuleGroup[] {
  const groups = new Map<string, RuleGroup & {seen: Set<string>}>()
  for (const d of list) {
    const rule = d.rule ?? ''
    const key = `${d.severity}\0${rule}`
    let group = groups.get(key)
    if (!group) {
      group = {rule, severity: d.severity, items: [], files: [], seen: new Set()}
      groups.set(key, group)
    }
    group.items.push(d)
    if (d.file !== undefined && !group.seen.has(d.file)) {
      group.seen.add(d.file)
      group.files.push(d.file)
    }
  }
  return [...groups.values()].map(({seen: _seen, ...group}) => group)
}

/** `1 write`, `2 writes`: a count and its noun (`nouns` when the plural is not the noun plus `s`). */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`
}

/** The sentence of a rule known to give infos, from its count and its number of documents. */
type Sentence = (count: number, documents: number) => string

const sentences: Record<string, Sentence> = {
  'kb-id-other-target': (_count, documents) =>
    `${plural(documents, 'file')} carry the kb_id of another knowledge base the sync state knows: matched here by path and this knowledge base's state (new items the first time); the files are not rewritten`,
  'kb-html-comment': (count, documents) =>
    `${plural(count, 'HTML comment')} left out${documents > 0 ? ` of ${plural(documents, 'document')}` : ''} (the platform shows none)`,
  'site-page-skipped': (count) =>
    `${plural(count, 'page')} the site makes, with no text of ${count === 1 ? 'its' : 'their'} own, not published (front matter: a redirect, a page not rendered, or a layout drawing front matter alone)`
}

/** The one sentence that sums up a group of infos (no severity word, no rule, no colour: the view adds those). */
export function infoSentence(group: RuleGroup): string {
  const sentence = sentences[group.rule]
  const count = group.items.length
  const documents = group.files.length
  if (sentence) return sentence(count, documents)
  return `${group.items[0]!.message}${count > 1 ? ` (×${count}${documents > 0 ? ` in ${plural(documents, 'document')}` : ''})` : ''}`
}
