/**
 * Whether a folder manages permissions: the one predicate pull, status and
 * every other reader of permissions ask. A folder that declares them (a
 * topic's `_permissions.yml`, an article's front matter `permissions`,
 * anywhere) manages them, and so does one the configuration says does
 * (`permissions: "manage"`); one that declares none does not, unless the
 * configuration says so, and `permissions: "ignore"` stops it even where
 * files declare them. An empty folder (a first pull, an export) manages
 * them unless told not to: the export keeps the platform's permissions.
 *
 * Where a folder manages permissions, pull and status read every item's:
 * the API contract does not promise that a permissions change moves an
 * item's `updated_at`, so a change is found only by reading them. Where it
 * does not, nothing reads them and pull writes none.
 */
import type {ScanResult} from '../../local/index.js'

/** The configuration's switch (`permissions` in kbsync.config.json); `auto` (unset): as the folder declares. */
export type PermissionsSetting = 'manage' | 'ignore' | 'auto'

/** Whether the folder of `scan` manages permissions under `setting` (pure). */
export function managesPermissions(scan: Pick<ScanResult, 'byPath'>, setting: PermissionsSetting = 'auto'): boolean {
  if (setting !== 'auto') return setting === 'manage'
  const nodes = Object.values(scan.byPath)
  // Nothing in the folder but its root: a first pull, which keeps what the platform has.
  if (nodes.every((node) => node.path === '')) return true
  return nodes.some((node) => node.permissions !== undefined)
}

/** The setting a library option or a flag gives: `false` (`--no-permissions`) ignores, `true` or absent follows the folder. */
export function permissionsSetting(option: boolean | PermissionsSetting | undefined): PermissionsSetting {
  if (option === false) return 'ignore'
  if (option === undefined || option === true) return 'auto'
  return option
}
