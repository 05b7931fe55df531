/**
 * Creates that converge when two runs publish the same folder at once (two
 * CI jobs, two clones): the platform has no lock and no idempotency key, so
 * each create looks at the parent's children right before and right after
 * it. Every run applies the same rule, so they agree without talking:
 *
 * - before: an item of the same type and title under the same parent that
 *   appeared since the plan read the tree (so another run made it, not a
 *   namesake the plan chose to leave alone) and that this run does not track
 *   is adopted instead of created;
 * - after: if such a namesake was created in the same second as ours or
 *   earlier, ours is deleted (only ours: never an item another run made) and,
 *   once the other runs had time to settle (`SETTLE_MS`), the earliest
 *   survivor (`created_at`, then id) is adopted; if none survived (both runs
 *   deferred to each other), the create is tried again after a random pause.
 *
 * The id a run keeps is settled before it is recorded in `run.ids`, so no
 * child is created under a twin and no body links to one. The looks share
 * listings (`sibling-listings.ts`): the "before" look reads the newest one
 * known, the "after" look the next one to start after the create answered
 * (what the rule needs), so a topic is listed per batch of creates, not
 * twice per create. What slips through
 * (a run killed between its create and its check) is reported by the plan as
 * a twin (`twins.ts`) and removed by `push --remove-twins`.
 */
import type {KbItem, StructureNode} from '../../api/types.js'
import {comparableBody} from '../../api/writes.js'
import type {LocalNode} from '../../local/index.js'
import type {RunState} from './item-step.js'
import {namesakeKey, SiblingListings, type Listing} from './sibling-listings.js'

/** How long a run that deferred waits for the other runs' own checks (and deletes) to be done. */
export const SETTLE_MS = 1500
/** Creates tried when every run deferred to the others (each pause random, so one run goes first). */
const ATTEMPTS = 4

/** `created_at` as a number (second resolution on the platform); unknown sorts last. */
function createdMs(node: {created_at?: string}): number {
  const ms = node.created_at === undefined ? Number.NaN : Date.parse(node.created_at)
  return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms
}

/** The order every run keeps twins by: the earliest creation, then the smallest id. */
export function earliestFirst(a: {id: string; created_at?: string}, b: {id: string; created_at?: string}): number {
  return createdMs(a) - createdMs(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The ids each run may not adopt (`claimed`): the ids it tracked when first
 * asked (`run.ids` and the state), gathered once, then each id
 * `convergedCreate` keeps as it records it in `run.ids` (the only way that
 * map grows), so the set stays the run's ids without a walk per create.
 */
const knownByRun = new WeakMap<RunState, Set<string>>()

function knownOf(run: RunState): Set<string> {
  let known = knownByRun.get(run)
  if (!known) {
    known = new Set(run.ids.values())
    for (const entry of Object.values(run.store.state.items)) if (entry.id) known.add(entry.id)
    knownByRun.set(run, known)
  }
  return known
}

/**
 * Ids this run may not adopt: what it tracks, and what the plan saw (a
 * namesake left alone on purpose). A walk over every id per create that met
 * a namesake (each one, when another run pushes the same tree at once) made
 * such a push quadratic.
 */
function claimed(run: RunState, ids: readonly string[]): Set<string> {
  const taken = new Set(ids.filter((id) => Object.hasOwn(run.context.remote.items, id)))
  if (taken.size === ids.length) return taken
  const known = knownOf(run)
  for (const id of ids) if (known.has(id)) taken.add(id)
  return taken
}

const listings = new WeakMap<RunState, SiblingListings>()

/** The listings of `run`'s topics (one set per run). */
export function listingsOf(run: RunState): SiblingListings {
  let found = listings.get(run)
  if (!found) {
    const {client} = run.options
    const list = (parentId: string | null) =>
      client.getChildren ? client.getChildren(parentId) : client.getTree(parentId)
    listings.set(run, (found = new SiblingListings(list)))
  }
  return found
}

/** The namesakes of `node` in `listing` that another run made since the plan (not `except`). */
function othersMade(run: RunState, node: LocalNode, listing: Listing, except?: string): StructureNode[] {
  const found = (listing.get(namesakeKey({type: node.kind, title: node.title})) ?? []).filter((n) => n.id !== except)
  if (found.length === 0) return found
  const taken = claimed(
    run,
    found.map((n) => n.id)
  )
  return found.filter((n) => !taken.has(n.id))
}

/** Takes over the item another run made: its body made ours if it differs (as an update would). */
async function adopt(run: RunState, found: StructureNode, body: string | undefined): Promise<KbItem> {
  const item = await run.options.client.getItem(found.id)
  if (body === undefined || comparableBody(item.body ?? '', item.title) === comparableBody(body)) return item
  run.writes++
  return run.options.client.updateItem(item.id, {body})
}

/**
 * Creates `node` under `parentId` unless a concurrent run did, and settles
 * twins made at the same time (see the module's comment). Returns the item
 * this run keeps (its own create, or the one it adopted), recorded in
 * `run.ids` at `node.path`.
 */
export async function convergedCreate(
  run: RunState,
  node: LocalNode,
  parentId: string | null,
  body: string | undefined
): Promise<KbItem> {
  const kept = await settledCreate(run, node, parentId, body)
  run.ids.set(node.path, kept.id)
  knownByRun.get(run)?.add(kept.id)
  return kept
}

/** `convergedCreate` before the id kept is recorded. */
async function settledCreate(
  run: RunState,
  node: LocalNode,
  parentId: string | null,
  body: string | undefined
): Promise<KbItem> {
  const {client} = run.options
  const listings = listingsOf(run)
  for (let attempt = 1; ; attempt++) {
    const already = othersMade(run, node, await listings.known(parentId)).sort(earliestFirst)
    if (already[0]) return adopt(run, already[0], body)
    const mine = await client.createItem({
      type: node.kind,
      title: node.title,
      parent_topic_id: parentId,
      ...(body !== undefined ? {body} : {})
    })
    run.writes++
    const twins = othersMade(run, node, await listings.fresh(parentId), mine.id)
    // Ours is kept only if every twin is strictly younger: its maker sees ours when it looks, and defers.
    if (!twins.some((twin) => createdMs(twin) <= createdMs(mine))) {
      if (mine.type === 'topic') listings.createdTopic(mine.id)
      return mine
    }
    await client.deleteItem(mine.id, {withChildren: false})
    run.writes++
    await sleep(SETTLE_MS + Math.random() * SETTLE_MS)
    const left = othersMade(run, node, await listings.fresh(parentId)).sort(earliestFirst)
    if (left[0]) return adopt(run, left[0], body)
    if (attempt >= ATTEMPTS)
      throw new Error(
        `"${node.title}" was created by another run at the same moment ${ATTEMPTS} times: re-run the push`
      )
    await sleep(Math.random() * SETTLE_MS)
  }
}
