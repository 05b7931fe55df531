/**
 * What a push knows of the children of the topics it creates into, for
 * `converge.ts`. A topic's listing costs what the topic holds (the API
 * lists all of its children or none), so listing it twice per create made
 * one flat folder of 30,000 articles cost 1.8 billion nodes. Here:
 *
 * - a topic is listed once before the run's first create in it (a topic the
 *   run made itself is known empty), and that listing serves every later
 *   "before" look, replaced by each newer one;
 * - the "after" look of a create needs a listing that started after the
 *   create answered: the creates waiting for one share the next listing of
 *   their topic (one in flight, one queued, per topic), and while they wait
 *   they hold no slot of the run (`waitingForListings`), so the creates that
 *   answer during a listing make the next one's batch. A listing that costs
 *   more (a bigger topic) so gathers more creates: the listings of a folder
 *   cost in proportion to its size, not its square.
 */
import type {StructureNode} from '../../api/types.js'

/** A topic's children as a create's checks read them: by type and trimmed title. */
export type Listing = ReadonlyMap<string, readonly StructureNode[]>

/** The key of a namesake in a `Listing`. */
export function namesakeKey(node: {type: string; title: string}): string {
  return `${node.type}\u0000${node.title.trim()}`
}

/** The children `nodes` as a `Listing` (only the fields the checks read are kept). */
export function listingOf(nodes: readonly StructureNode[]): Listing {
  const listing = new Map<string, StructureNode[]>()
  for (const node of nodes) {
    const kept: StructureNode = {id: node.id, type: node.type, title: node.title, parent_topic_id: node.parent_topic_id}
    if (node.created_at !== undefined) kept.created_at = node.created_at
    const key = namesakeKey(node)
    const same = listing.get(key)
    if (same) same.push(kept)
    else listing.set(key, [kept])
  }
  return listing
}

interface TopicSlot {
  /** The newest listing read (or known: empty for a topic this run made). */
  latest?: Listing
  /** The first listing, while it is read. */
  first?: Promise<Listing>
  /** The listing in flight, settled or not. */
  busy?: Promise<unknown>
  /** The listing queued behind it: it starts only once `busy` settles. */
  next?: Promise<Listing>
}

/** The listings of one run, by topic (`null`: the root). */
export class SiblingListings {
  private readonly topics = new Map<string | null, TopicSlot>()
  private waiting = 0
  private listener: (() => void) | undefined

  constructor(private readonly list: (parentId: string | null) => Promise<StructureNode[]>) {}

  /** How many creates wait for a listing now: they hold no slot of the run. */
  get waitingForListings(): number {
    return this.waiting
  }

  /** Calls `listener` whenever the number of creates waiting for a listing changes (the scheduler may start more tasks then). */
  onWaitingChange(listener: (() => void) | undefined): void {
    this.listener = listener
  }

  /** Records a topic this run just created: nothing is under it yet. */
  createdTopic(id: string): void {
    this.slotOf(id).latest ??= new Map()
  }

  /** The newest listing of `parentId` known, read once if none is. */
  known(parentId: string | null): Promise<Listing> {
    const slot = this.slotOf(parentId)
    if (slot.latest) return Promise.resolve(slot.latest)
    slot.first ??= this.queue(parentId, slot).finally(() => (slot.first = undefined))
    return this.waited(slot.first)
  }

  /** A listing of `parentId` whose request starts after this call (shared with the creates that ask meanwhile). */
  fresh(parentId: string | null): Promise<Listing> {
    return this.waited(this.queue(parentId, this.slotOf(parentId)))
  }

  /** The listing queued behind the one in flight, queued now if none is. */
  private queue(parentId: string | null, slot: TopicSlot): Promise<Listing> {
    if (!slot.next) {
      const started = (async () => {
        await slot.busy
        // From here on a new caller needs a listing of its own: this one's request starts now.
        slot.next = undefined
        const reading = this.list(parentId)
        slot.busy = reading.catch(() => undefined)
        const listing = listingOf(await reading)
        slot.latest = listing
        return listing
      })()
      slot.next = started
    }
    return slot.next
  }

  private async waited(listing: Promise<Listing>): Promise<Listing> {
    this.changeWaiting(1)
    try {
      return await listing
    } finally {
      this.changeWaiting(-1)
    }
  }

  private changeWaiting(by: number): void {
    this.waiting += by
    this.listener?.()
  }

  private slotOf(parentId: string | null): TopicSlot {
    let slot = this.topics.get(parentId)
    if (!slot) this.topics.set(parentId, (slot = {}))
    return slot
  }
}
