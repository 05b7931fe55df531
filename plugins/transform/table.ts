/**
 * The pairing table: the entries the registered constructs contribute, by
 * the tags they pair. The pairings (`flow.ts`, `phrasing.ts`) look a tag up
 * here and know no construct themselves.
 */
import type {EntryTag, FlowEntry, KbConstruct, PhrasingEntry} from '../construct.js'
import type {Position} from 'unist'
import type {KbTag} from '../syntax/tag.js'
import {dialectNodes} from '../syntax/vocabulary.js'
import type {KbProblem} from './problems.js'

/** The entries of one tag name: one for every tag of the name, or one per `data-node` value. */
interface NameEntries<E> {
  any?: E
  byNode: Map<string, E>
}

/** Entries by tag name, for one level (flow or phrasing). */
export type Entries<E> = ReadonlyMap<string, NameEntries<E>>

/** The table a processor pairs with. */
export interface PairingTable {
  flow: Entries<FlowEntry>
  phrasing: Entries<PhrasingEntry>
}

function add<E extends EntryTag>(table: Map<string, NameEntries<E>>, entry: E): void {
  let entries = table.get(entry.tag)
  if (!entries) table.set(entry.tag, (entries = {byNode: new Map()}))
  if (entry.node === undefined) entries.any = entry
  else entries.byNode.set(entry.node, entry)
}

/** The table of `constructs` (a later construct's entry for the same tags wins). */
export function pairingTable(constructs: readonly KbConstruct[]): PairingTable {
  const flow = new Map<string, NameEntries<FlowEntry>>()
  const phrasing = new Map<string, NameEntries<PhrasingEntry>>()
  for (const construct of constructs) {
    for (const entry of construct.flow ?? []) add(flow, entry)
    for (const entry of construct.phrasing ?? []) add(phrasing, entry)
  }
  return {flow, phrasing}
}

/** The entry that pairs `tag`, if a registered construct has one. */
export function entryOf<E>(entries: Entries<E>, tag: KbTag): E | undefined {
  const named = entries.get(tag.name)
  if (!named) return undefined
  return named.any ?? named.byNode.get(tag.attributes['data-node'] ?? '')
}

/**
 * Whether `tag` is told apart by a `data-node` value the dialect does not
 * have (`<div data-node=carousel>`): such a tag is reported, where one of a
 * construct the processor does not register stays as written, silently.
 */
export function hasUnknownNode(tag: KbTag): boolean {
  const known = dialectNodes.get(tag.name)
  return known !== undefined && !known.has(tag.attributes['data-node'] ?? '')
}

/**
 * The problem a tag with a `data-node` value the dialect does not have is
 * reported with (`hasUnknownNode`), at `place`: the tag is named, but for
 * `<div>` and `<a>`, the tags whose value is the usual one to get wrong.
 */
export function unknownNodeProblem(tag: KbTag, place: Position | undefined): KbProblem {
  const on = tag.name === 'div' || tag.name === 'a' ? '' : ` on \`<${tag.name}>\``
  return {
    reason: `Unknown \`data-node\` value \`${tag.attributes['data-node'] ?? ''}\`${on}`,
    ruleId: 'kb-unknown-node',
    place
  }
}
