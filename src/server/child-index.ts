/**
 * The children of each topic of the local server's store, so the structure
 * listing and a topic's deletion cost what they answer, not a scan of every
 * item per topic (30,000 articles in 1,000 topics made one listing 30
 * million visits). Children come in creation order (the order of the store,
 * kept by a moved item too), as a scan of the store listed them.
 */

interface ChildList {
  ids: Set<string>
  sorted: boolean
  newest: number
}

/** Who is under which topic (`null`: the root). */
export class ChildIndex {
  /** Each item's place in creation order. */
  private readonly order = new Map<string, number>()
  /** Each parent's children; `sorted` false once an item moved in before the newest (`newest`: the highest place seen). */
  private readonly lists = new Map<string | null, ChildList>()
  private next = 0

  /** Records a new item (the newest: it goes last among its siblings). */
  add(id: string, parent: string | null): void {
    this.order.set(id, this.next)
    const list = this.listOf(parent)
    list.ids.add(id)
    list.newest = this.next++
  }

  /** Records a move from `from` to `to`. */
  move(id: string, from: string | null, to: string | null): void {
    if (from === to) return
    this.lists.get(from)?.ids.delete(id)
    const list = this.listOf(to)
    const place = this.order.get(id)!
    list.ids.add(id)
    if (place < list.newest) list.sorted = false
    else list.newest = place
  }

  /** Forgets an item (and its own list of children). */
  remove(id: string, parent: string | null): void {
    this.lists.get(parent)?.ids.delete(id)
    this.lists.delete(id)
    this.order.delete(id)
  }

  /** The ids directly under `parent`, in creation order. */
  children(parent: string | null): string[] {
    const list = this.lists.get(parent)
    if (!list) return []
    if (!list.sorted) {
      list.ids = new Set([...list.ids].sort((a, b) => this.order.get(a)! - this.order.get(b)!))
      list.sorted = true
    }
    return [...list.ids]
  }

  /** Every id under `id`, depth first, each before its own children (iterative: no depth overflows the stack). */
  descendants(id: string): string[] {
    const found: string[] = []
    const pending = this.children(id).reverse()
    while (pending.length > 0) {
      const next = pending.pop()!
      found.push(next)
      const children = this.children(next)
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!)
    }
    return found
  }

  private listOf(parent: string | null): ChildList {
    let list = this.lists.get(parent)
    if (!list) this.lists.set(parent, (list = {ids: new Set(), sorted: true, newest: -1}))
    return list
  }
}
