/**
 * Which navigation entries a pull edits (pure): where the scan found a
 * document through a navigation file (`node.navigation`), an item created
 * on the platform gets an entry beside its siblings' in the platform's
 * order, a deleted one loses its entry (with its sub-entries), a moved one's
 * entry moves, and a title that came from the entry is written there.
 * `SUMMARY.md` and a MkDocs `nav` are edited (`navigation-apply.ts`); a
 * sidebar written as code is not: one warning lists the entries to add.
 */
import path from 'node:path'
import type {Anchor, Diagnostic, LocalNode, NewEntry, OutlineEdit, ScanResult} from '../../local/index.js'
import {isSectionKey} from '../shared/document-homes.js'
import type {RemoteSnapshot} from '../shared/remote.js'
import type {PullPlan} from './plan.js'

/** The edits of one navigation file. */
export interface NavigationEdits {
  /** The navigation file, relative to the folder. */
  file: string
  edits: OutlineEdit[]
}

/** What planning navigation edits reads. */
export interface NavigationInput {
  scan: ScanResult
  remote: RemoteSnapshot
  /** Current path by id (the layout's). */
  current: ReadonlyMap<string, string>
  /** The folder (relative to the scanned one) the paths of a navigation file are relative to. */
  baseOf(navFile: string): string
}

/** Whether the pull edits a navigation file of this name (others are reported, not edited). */
export function isEditableNavigation(file: string): boolean {
  return /(?:^|\/)(?:SUMMARY\.md|mkdocs\.ya?ml)$/.test(file) && !file.startsWith('../')
}

/** The navigation edits of `plan`, by file, and the warnings of entries that must be added by hand. */
export function planNavigation(
  plan: PullPlan,
  input: NavigationInput
): {files: NavigationEdits[]; diagnostics: Diagnostic[]} {
  const byFile = new Map<string, OutlineEdit[]>()
  const manual: Array<{file: string; what: string}> = []
  const add = (file: string, edit: OutlineEdit) => appendTo(byFile, file, edit)
  const opOf = new Map(plan.ops.map((op) => [op.id, op]))
  const nodeOf = (id: string): LocalNode | undefined => {
    const at = input.current.get(id)
    return at === undefined ? undefined : input.scan.byPath[at]
  }
  // Siblings whose entry stays where it is: an anchor for the others.
  const steady = (id: string) => {
    const op = opOf.get(id)
    return op === undefined || (op.from === undefined && op.op !== 'delete' && op.op !== 'create')
  }
  const entryOf = (sibling: string) => (steady(sibling) ? nodeOf(sibling)?.navigation : undefined)
  const anchorOf = anchorsOf(input, entryOf, nodeOf)
  const parentIdOf = parentIdsOf(input)
  for (const op of plan.ops) {
    const node = op.op === 'create' ? undefined : input.scan.byPath[op.from ?? op.path]
    if (op.op === 'conflict') continue
    if (op.op === 'delete') {
      if (node?.navigation) add(node.navigation.file, {kind: 'remove', line: node.navigation.line})
      continue
    }
    if (op.op === 'create') {
      const parentId = input.remote.items[op.id]!.parentId
      // A child of a topic created too is written inside its parent's entry.
      if (parentId !== null && opOf.get(parentId)?.op === 'create') continue
      const place = anchorOf(op.id)
      if (!place) continue
      const entry = newEntry(op.id, plan, input, place.file)
      if (isEditableNavigation(place.file)) add(place.file, {kind: 'insert', anchor: place.anchor, entry})
      else manual.push({file: place.file, what: `"${op.title}" (${op.file})`})
      continue
    }
    if (!node?.navigation) continue
    const file = node.navigation.file
    const title = input.remote.items[op.id]!.title
    if (node.titleFrom === 'navigation' && node.title !== title)
      add(file, {kind: 'retitle', line: node.navigation.line, title})
    if (input.remote.items[op.id]!.parentId !== parentIdOf(node)) {
      const place = anchorOf(op.id)
      if (place?.file !== file) continue
      const target = op.file !== '' ? {target: targetOf(op.file, file, input)} : {}
      add(file, {kind: 'move', line: node.navigation.line, anchor: place.anchor, ...target})
    }
  }
  for (const line of emptiedSections(plan, input, nodeOf)) add(line.file, {kind: 'remove', line: line.line})
  const files = [...byFile].filter(([file]) => isEditableNavigation(file)).map(([file, edits]) => ({file, edits}))
  return {files, diagnostics: manualWarnings(manual)}
}

/**
 * The entries of MkDocs sections (a title over a list, keyed by the folder
 * their pages share) whose last page left on the web: MkDocs refuses a section
 * with nothing under it (`- About:`), so the entry goes, and the topic stays
 * in its folder, which the pull keeps (`kept-folders.ts`).
 */
function emptiedSections(
  plan: PullPlan,
  input: NavigationInput,
  nodeOf: (id: string) => LocalNode | undefined
): Array<{file: string; line: number}> {
  const deleted = new Set(plan.ops.filter((op) => op.op === 'delete').map((op) => op.id))
  const lines: Array<{file: string; line: number}> = []
  for (const [id, item] of Object.entries(input.remote.items)) {
    if (item.type !== 'topic' || item.children.length > 0 || deleted.has(id)) continue
    const node = nodeOf(id)
    const entry = node?.navigation
    if (node?.kind !== 'topic' || node.file !== undefined || entry === undefined || isSectionKey(node.path)) continue
    if (/(?:^|\/)mkdocs\.ya?ml$/.test(entry.file)) lines.push({file: entry.file, line: entry.line})
  }
  return lines
}

/** The id of the topic each node sits under in the scan (null: the root), from one table of the layout's paths. */
function parentIdsOf(input: NavigationInput): (node: LocalNode) => string | null {
  const idAt = new Map<string, string>()
  for (const [id, at] of input.current) if (!idAt.has(at)) idAt.set(at, id)
  const root = input.remote.rootTopicId
  return (node) => (node.parent === undefined || node.parent === '' ? root : (idAt.get(node.parent) ?? root))
}

type Origin = NonNullable<LocalNode['navigation']>

/** The steady entries nearest each place of one list of siblings: before it and after it. */
interface SiblingEntries {
  index: Map<string, number>
  before: Array<Origin | undefined>
  after: Array<Origin | undefined>
}

/** The nearest entries of `siblings` (`entryOf` gives a sibling's own), read once. */
function siblingEntries(siblings: readonly string[], entryOf: (id: string) => Origin | undefined): SiblingEntries {
  const index = new Map<string, number>()
  const own = siblings.map((sibling) => entryOf(sibling))
  const before: Array<Origin | undefined> = []
  const after: Array<Origin | undefined> = new Array<Origin | undefined>(siblings.length)
  let last: Origin | undefined
  for (let i = 0; i < siblings.length; i++) {
    if (!index.has(siblings[i]!)) index.set(siblings[i]!, i)
    before.push(last)
    last = own[i] ?? last
  }
  last = undefined
  for (let i = siblings.length - 1; i >= 0; i--) {
    after[i] = last
    last = own[i] ?? last
  }
  return {index, before, after}
}

/**
 * Where the entry of an item goes: after the previous sibling with a steady entry, before the next, inside its
 * parent's, or at the end. Each list of siblings is read once (its nearest entries both ways): a folder of
 * thousands of created items scanned its siblings per item, costing their square.
 */
function anchorsOf(
  input: NavigationInput,
  entryOf: (id: string) => Origin | undefined,
  nodeOf: (id: string) => LocalNode | undefined
): (id: string) => {file: string; anchor: Anchor} | undefined {
  const {remote} = input
  const lists = new Map<readonly string[], SiblingEntries>()
  return (id) => {
    const parentId = remote.items[id]!.parentId
    const atRoot = parentId === null || parentId === remote.rootTopicId
    const siblings = atRoot ? remote.top : remote.items[parentId]!.children
    let entries = lists.get(siblings)
    if (!entries) lists.set(siblings, (entries = siblingEntries(siblings, entryOf)))
    const at = entries.index.get(id)
    // An item missing from its siblings looks at them all, from the first (as `indexOf`'s -1 did).
    const previous = at === undefined ? undefined : entries.before[at]
    if (previous) return {file: previous.file, anchor: {after: previous.line}}
    const next =
      at === undefined
        ? siblings.length > 0
          ? (entryOf(siblings[0]!) ?? entries.after[0])
          : undefined
        : entries.after[at]
    if (next) return {file: next.file, anchor: {before: next.line}}
    const parent = atRoot ? input.scan.byPath[''] : nodeOf(parentId)
    if (parent?.navigation) return {file: parent.navigation.file, anchor: {childOf: parent.navigation.line}}
    // The outline's own folder: any entry of its tree names the file; the new one goes at its end.
    const any = parent?.kind === 'topic' ? parent.children.find((child) => child.navigation)?.navigation : undefined
    return any ? {file: any.file, anchor: {end: true}} : undefined
  }
}

/** Appends `value` to the list of `key` in `map`, in place. */
function appendTo<Value>(map: Map<string, Value[]>, key: string, value: Value): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/** The entry of the created item `id` (and of its children created with it), its path relative to the outline's base. */
function newEntry(id: string, plan: PullPlan, input: NavigationInput, navFile: string): NewEntry {
  const root: NewEntry = {title: '', children: []}
  const stack: Array<{id: string; into: NewEntry[]}> = [{id, into: root.children}]
  while (stack.length > 0) {
    const next = stack.pop()!
    const item = input.remote.items[next.id]!
    const file = plan.files[next.id]
    // A MkDocs section is its label over its pages (its folder's index page is found by the scan); an mdBook chapter names its page.
    const section = item.type === 'topic' && !/SUMMARY\.md$/.test(navFile)
    const entry: NewEntry = {
      title: item.title,
      ...(file && !section ? {target: targetOf(file, navFile, input)} : {}),
      children: []
    }
    next.into.push(entry)
    for (const child of [...item.children].reverse()) stack.push({id: child, into: entry.children})
  }
  for (const entry of allEntries(root)) entry.children.reverse()
  return root.children[0]!
}

function allEntries(root: NewEntry): NewEntry[] {
  const out: NewEntry[] = []
  const stack = [root]
  while (stack.length > 0) {
    const entry = stack.pop()!
    out.push(entry)
    stack.push(...entry.children)
  }
  return out
}

/** `file` (relative to the folder) as the navigation file `navFile` names it: relative to the outline's base. */
function targetOf(file: string, navFile: string, input: NavigationInput): string {
  return path.posix.relative(input.baseOf(navFile), file)
}

/** One warning per navigation file that pull cannot edit, listing the entries to add by hand. */
function manualWarnings(manual: ReadonlyArray<{file: string; what: string}>): Diagnostic[] {
  const byFile = new Map<string, string[]>()
  for (const {file, what} of manual) appendTo(byFile, file, what)
  return [...byFile].map(([file, whats]) => ({
    severity: 'warning' as const,
    file,
    message: `${whats.length} ${whats.length === 1 ? 'document' : 'documents'} created on the platform ${whats.length === 1 ? 'is' : 'are'} not in ${path.posix.basename(file)}, which pull does not edit: ${whats.slice(0, 5).join(', ')}${whats.length > 5 ? ` and ${whats.length - 5} more` : ''}`,
    hint: 'Add an entry for each by hand where the sidebar lists its siblings (an autogenerated group needs none)',
    rule: 'pull-navigation-manual'
  }))
}
