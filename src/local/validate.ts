/**
 * Checks of the whole desired tree that no single file can see: two
 * children of one topic with the same title (the platform would hold two
 * items no one can tell apart, and matching by title would be ambiguous),
 * unless every one of them is pinned by a `kb_id`; and one `kb_id` pinned by
 * two files.
 */
import type {Diagnostic} from './diagnostic.js'
import type {LocalNode, LocalTopic} from './types.js'

/** Titles that read the same: trimmed, NFC, lower case. */
function titleKey(title: string): string {
  return title.trim().normalize('NFC').toLowerCase()
}

/** Pushes duplicate-title and duplicate-id errors of the tree under `root`. */
export function validateTree(root: LocalTopic, diagnostics: Diagnostic[]): void {
  const ids = new Map<string, LocalNode>()
  const visit = (topic: LocalTopic): void => {
    const titles = new Map<string, LocalNode[]>()
    for (const child of topic.children) {
      const key = titleKey(child.title)
      titles.set(key, [...(titles.get(key) ?? []), child])
    }
    for (const child of topic.children) {
      const same = titles.get(titleKey(child.title))!
      const first = same[0]!
      // The platform allows equal titles; when every one is pinned by kb_id, matching never needs the title.
      if (first !== child && !same.every((node) => node.kbId)) {
        diagnostics.push({
          severity: 'error',
          file: fileOf(child),
          line: titleLineOf(child),
          message: `Title "${child.title}" is already used by \`${fileOf(first)}\` in the same topic`,
          hint: 'Give one of them another title (front matter `title`, first `# ` heading or file name), or pin each of them with a `kb_id`',
          rule: 'duplicate-title'
        })
      }
      if (child.kbId) {
        const other = ids.get(child.kbId)
        if (other) {
          diagnostics.push({
            severity: 'error',
            file: fileOf(child),
            line: 1,
            message: `kb_id ${child.kbId} is already pinned by \`${fileOf(other)}\``,
            hint: 'A copied file keeps its kb_id: remove it from the copy',
            rule: 'duplicate-kb-id'
          })
        } else {
          ids.set(child.kbId, child)
        }
      }
      if (child.kind === 'topic') visit(child)
    }
  }
  visit(root)
}

function fileOf(node: LocalNode): string {
  return node.file ?? node.path
}

function titleLineOf(node: LocalNode): number {
  return node.kind === 'article' && node.titleLine !== undefined ? node.titleLine : 1
}
