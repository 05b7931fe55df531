/**
 * The lock (config `lock`): each published item's editors are the
 * publishing account, so the platform's editors cannot change what git
 * publishes. The lock is a permissions declaration like `_permissions.yml`,
 * given to every document the folder does not declare editors for, so it
 * goes through the same plan, guards and state as declared permissions (a
 * second push reads and writes nothing). A declaration that names editors
 * wins over the lock for its item and, for a topic, everything under it
 * (one `lock-overridden` warning counts them).
 *
 * The API has no "who am I": the publishing account is the person its
 * answers name as the author of what kbsync created and the last editor of
 * what it wrote. The sync state keeps it per knowledge base; until one write
 * has named it, the items are locked at the end of the first push that
 * writes anything.
 */
import type {Diagnostic, LocalNode, LocalPermissions, ScanResult} from '../../local/index.js'
import type {KbItem} from '../../api/types.js'
import type {SyncClient} from '../shared/types.js'

/** The lock's permissions for `node`: the publishing account as the only editor; a topic keeps inheriting its readers. */
export function lockPermissions(node: LocalNode, publisher: number, declared?: LocalPermissions): LocalPermissions {
  return {
    ...(node.kind === 'topic' ? {inherit: declared?.inherit ?? true} : {}),
    readers: declared?.readers ?? [],
    editors: [publisher]
  }
}

/**
 * Gives the lock to every document of `scan` (in place) that no declaration
 * with editors covers; returns the warning about declarations that name
 * other editors (those win), if any. Iterative: a tree's depth is the
 * repository's.
 */
export function applyLock(scan: ScanResult, publisher: number): Diagnostic[] {
  const overridden: string[] = []
  const stack: Array<{node: LocalNode; covered: boolean}> = [{node: scan.root, covered: false}]
  while (stack.length > 0) {
    const {node, covered} = stack.pop()!
    const declared = node.permissions
    const namesEditors = declared !== undefined && declared.editors.length > 0
    if (namesEditors && !(declared.editors.length === 1 && declared.editors[0] === publisher))
      overridden.push(node.file ?? node.path)
    const coveredNow = covered || namesEditors
    if (node.path !== '' && !coveredNow) node.permissions = lockPermissions(node, publisher, declared)
    if (node.kind === 'topic') for (const child of node.children) stack.push({node: child, covered: coveredNow})
  }
  if (overridden.length === 0) return []
  const named = overridden.slice(0, 3).join(', ')
  const more = overridden.length > 3 ? ` and ${overridden.length - 3} more` : ''
  return [
    {
      severity: 'warning',
      message: `lock: ${overridden.length} permission declaration(s) name other editors than the publishing account (${named}${more}): the declaration wins there, and for everything under a topic's _permissions.yml (remove its editors to lock them)`,
      rule: 'lock-overridden'
    }
  ]
}

/** A client that tells `learn` the account its write answers name (the author of a create, the last editor of an update). */
export function learningClient(client: SyncClient, learn: (person: number) => void): SyncClient {
  const heard = (item: KbItem, person: KbItem['author']) => {
    if (person && Number.isInteger(person.id)) learn(person.id)
    return item
  }
  return {
    ...client,
    createItem: async (input) => {
      const item = await client.createItem(input)
      return heard(item, item.author ?? item.last_edited_by)
    },
    updateItem: async (id, input) => {
      const item = await client.updateItem(id, input)
      return heard(item, item.last_edited_by)
    }
  }
}
