/**
 * What the last look before an overwrite (`late-edit.ts`) reads first: the
 * `updated_at` of an item in a recent listing of its topic. A read of the
 * whole item per overwrite made a push that changes every file cost two
 * requests per file; a topic's listing answers for all of its items at
 * once, and only an item whose `updated_at` moved is read whole.
 *
 * A listing serves the overwrites that ask while it is in flight or within
 * `freshFor` of its start: never older than a couple of seconds (about the
 * time an overwrite spends uploading its files after its look), and never
 * older than twice what the topic's last listing took, so a big topic is
 * listed in proportion to the push's length, not once per batch of items.
 */
import type {StructureNode} from '../../api/types.js'

/** How long a listing answers for its topic after it started, at least. */
const FRESH_MS = 2000

interface Reading {
  started: number
  /** `updated_at` by id (absent: not listed there, or no date). */
  answer: Promise<ReadonlyMap<string, string>>
}

/** The recent listings of one run, by topic (`null`: the root). */
export class UpdateListings {
  private readonly topics = new Map<string | null, Reading>()
  private readonly took = new Map<string | null, number>()

  constructor(
    private readonly list: (parentId: string | null) => Promise<StructureNode[]>,
    private readonly now: () => number = Date.now
  ) {}

  /**
   * The `updated_at` of `id` in a listing of `parentId` that started at most
   * `freshFor` ago (read now if none did), with when that listing started;
   * `updatedAt` is undefined when the listing does not show it (moved,
   * deleted, or no date): the caller reads the item.
   */
  async updatedAt(parentId: string | null, id: string): Promise<{updatedAt?: string; started: number}> {
    const reading = this.recent(parentId)
    const updatedAt = (await reading.answer).get(id)
    return updatedAt === undefined ? {started: reading.started} : {updatedAt, started: reading.started}
  }

  private recent(parentId: string | null): Reading {
    const known = this.topics.get(parentId)
    const freshFor = Math.max(FRESH_MS, 2 * (this.took.get(parentId) ?? 0))
    if (known && this.now() - known.started <= freshFor) return known
    const started = this.now()
    const answer = this.list(parentId).then((nodes) => {
      this.took.set(parentId, this.now() - started)
      return datesOf(nodes)
    })
    const reading = {started, answer}
    this.topics.set(parentId, reading)
    // A failed listing is not kept: the next look lists again (and this one's caller reads the item).
    answer.catch(() => {
      if (this.topics.get(parentId) === reading) this.topics.delete(parentId)
    })
    return reading
  }
}

function datesOf(nodes: readonly StructureNode[]): ReadonlyMap<string, string> {
  const dates = new Map<string, string>()
  for (const node of nodes) if (node.updated_at !== undefined) dates.set(node.id, node.updated_at)
  return dates
}
