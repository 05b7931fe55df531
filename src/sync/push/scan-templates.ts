/**
 * The renders a push keeps from its scan. The scan parses each changed body
 * to learn its references; the write needs the same tree rendered with the
 * remote ids of its links. Parsing the body a second time for the write
 * cost about as much as the first parse, and its garbage was a good part of
 * the push's collections. While the scan holds a body's fresh tree, the push
 * renders it once with a slot for each link's id (`render-slots.ts`): the
 * write fills in the ids, without a parse or a serialisation. A body that
 * shows a local file (its reference known only once uploaded) keeps no
 * template, nor one past the budget: it is parsed again before its write.
 */
import {getHeapStatistics} from 'node:v8'
import {TreeBudget, type KeepRender, type LocalNode} from '../../local/index.js'
import {renderTemplate, type RenderContext} from '../shared/render.js'
import {holdTemplate, templateWeight} from '../shared/render-slots.js'
import type {NoticeSettings} from '../shared/notice.js'

/**
 * Characters the scan's templates hold together, at most: about 40,000
 * articles of 2-3 KB (one string of text each, which the collector marks
 * without reading), where the trees they replace would weigh ten times as
 * much, and a sixteenth of the heap at most (a heap bounded by
 * `--max-old-space-size` keeps fewer). The budget was 32 M characters,
 * about 14,000 such articles: the 30,000 of issue 32 parsed half their
 * bodies twice, its push costing 4.5 times the 9,000 one's, where its peak
 * (614 MB) left room for the 70 MB the other templates take. Past it, a
 * body is parsed again before its write.
 */
export const scanTemplateCharsMax = templateCharsWithin(getHeapStatistics().heap_size_limit)

/** The templates' budget in characters for a heap of at most `heapLimitBytes`: 96 M, or a sixteenth of the heap (two bytes a character) when that is less. */
export function templateCharsWithin(heapLimitBytes: number): number {
  return Math.min(96_000_000, Math.floor(heapLimitBytes / 32))
}

/** What the templates are rendered with: the settings a push renders with that the scan already knows. */
export interface ScanTemplateSettings {
  /** The configured root (the folder `''`). */
  rootTopicId: string | null
  /** The notice opening each article, if any. */
  notice?: NoticeSettings
  /** Characters the templates may hold together (default `scanTemplateCharsMax`). */
  charsMax?: number
}

/**
 * A `KeepRender` for the scan of a push: it keeps the template of each
 * parsed body's whole render (within the budget) for the write to fill in.
 * A template holds what it was made from (`templateKey`): a write whose
 * inputs differ (another notice, a file reference) renders from the tree.
 */
export function scanTemplates(settings: ScanTemplateSettings): KeepRender {
  const budget = new TreeBudget(settings.charsMax ?? scanTemplateCharsMax)
  // Nothing but the settings is known yet: a link's id is a slot, a local file has no reference (no template).
  const context: RenderContext = {
    idOf: () => undefined,
    rootTopicId: settings.rootTopicId,
    hashOf: () => undefined,
    fileRef: () => undefined,
    ...(settings.notice ? {notice: settings.notice} : {})
  }
  return (node: LocalNode, tree) => {
    const own = node.tree
    node.tree = tree
    try {
      const template = renderTemplate(node, context)
      if (template === undefined || !budget.keep(node.path, templateWeight(template))) return false
      holdTemplate(node, template)
      return true
    } catch {
      // The write renders it from its tree again, and fails with its name if it must.
      return false
    } finally {
      if (own === undefined) delete node.tree
      else node.tree = own
    }
  }
}
