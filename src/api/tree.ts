/**
 * The structure endpoint and the whole tree under a topic. The server cuts
 * the structure at a depth limit; topics at the last level come without a
 * `children` key and are fetched in turn (concurrently), so a server that
 * honours a generous depth answers in one request.
 */
import type {Transport} from './transport.js'
import type {StructureNode, StructureResponse} from './types.js'

/** Depth asked for by `getTree`. */
const TREE_DEPTH = 10

/** `GET /knowledgebase/structure`. */
export function getStructure(
  transport: Transport,
  options: {parentTopicId?: string | null; depth?: number} = {}
): Promise<StructureResponse> {
  const query: Record<string, string> = {}
  if (options.parentTopicId) query.parent_topic_id = options.parentTopicId
  if (options.depth !== undefined) query.depth = String(options.depth)
  return transport.call<StructureResponse>({
    method: 'GET',
    base: 'api',
    path: '/knowledgebase/structure',
    endpoint: 'GET /knowledgebase/structure',
    query,
    onFailure: 'retry'
  })
}

/**
 * Topics that carry no `children` key: cut by the depth limit. Every such
 * topic is fetched, whatever its level: a server may cap the depth and still
 * echo the depth asked for, and an empty topic costs one more request at worst.
 */
function cutTopics(nodes: StructureNode[]): StructureNode[] {
  const out: StructureNode[] = []
  // Iterative: the answer's nesting is the server's to choose.
  const stack = [...nodes].reverse()
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type !== 'topic') continue
    if (node.children === undefined) out.push(node)
    else for (let at = node.children.length - 1; at >= 0; at--) stack.push(node.children[at]!)
  }
  return out
}

/** The whole tree under `parentTopicId` (null: the root), fetching the subtrees the server cut. */
export async function getTree(transport: Transport, parentTopicId: string | null = null): Promise<StructureNode[]> {
  const answer = await getStructure(transport, {parentTopicId, depth: TREE_DEPTH})
  const items = Array.isArray(answer.items) ? answer.items : []
  const cut = cutTopics(items)
  await Promise.all(
    cut.map(async (node) => {
      node.children = await getTree(transport, node.id)
    })
  )
  return items
}
