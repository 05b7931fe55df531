/**
 * The browse page at `/`: the stored tree as HTML, everything escaped.
 */
import type {StructureNode} from '../api/types.js'

const escapes: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c]!)
}

function list(nodes: StructureNode[]): string {
  if (nodes.length === 0) return ''
  const items = nodes.map((node) => {
    const label = `${node.type === 'topic' ? '📁' : '📄'} ${escapeHtml(node.title)} <code>${escapeHtml(node.id)}</code>`
    return `<li>${label}${list(node.children ?? [])}</li>`
  })
  return `<ul>${items.join('')}</ul>`
}

/** The page listing every item of the local knowledge base. */
export function renderBrowsePage(tree: StructureNode[], apiUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>kbsync local knowledge base</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem;max-width:60rem}code{color:#667;font-size:.85em}ul{list-style:none;padding-left:1.2rem}</style>
</head><body><h1>Local knowledge base</h1><p>API: <code>${escapeHtml(apiUrl)}</code></p>
${tree.length === 0 ? '<p>No items yet: run <code>kbsync push</code>.</p>' : list(tree)}</body></html>`
}
