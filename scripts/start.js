#!/usr/bin/env node
/**
 * `npm start` (after the build): pushes the sample handbook
 * (`fixtures/handbook/`) to the embedded local knowledge base and prints what
 * it pushed and the resulting remote tree.
 *
 * The handbook is copied to a fresh temporary folder first, so the run never
 * writes into the repository; the embedded knowledge base and the sync state
 * live in that copy's `.kbsync/` folder, whose path is printed at the end.
 */
import {cp, mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {main} from '../dist/src/cli/index.js'
import {loadConfig} from '../dist/src/cli/config.js'
import {connect} from '../dist/src/cli/connect.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const work = await mkdtemp(path.join(tmpdir(), 'kbsync-start-'))
const dir = path.join(work, 'handbook')
await cp(path.join(root, 'fixtures', 'handbook'), dir, {recursive: true})

// The embedded knowledge base, whatever the caller's environment says.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('KBSYNC_')))
const io = {cwd: work, env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin}

console.log(`kbsync: pushing the sample handbook (a copy in ${dir}) to the embedded local knowledge base\n`)
const code = await main(['push', dir], io)
if (code !== 0) {
  console.error(`\nkbsync push exited with ${code}`)
  process.exit(code)
}

console.log('\nA second run finds nothing to do:')
const again = await main(['plan', dir, '--exit-code'], {
  ...io,
  stdout: {
    write: (text) =>
      process.stdout.write(
        text
          .split('\n')
          .filter((l) => /No changes|Plan:/.test(l))
          .map((l) => `  ${l}\n`)
          .join('')
      )
  }
})
if (again !== 0) {
  console.error(`\nkbsync plan --exit-code exited with ${again}: the second run was not a no-op`)
  process.exit(1)
}

/** Prints the tree under the root, indented, with ids. */
function printTree(nodes, depth = 0) {
  const sorted = [...nodes].sort((a, b) =>
    a.type === b.type ? a.title.localeCompare(b.title) : a.type === 'topic' ? -1 : 1
  )
  for (const node of sorted) {
    console.log(
      `${'  '.repeat(depth + 1)}${node.type === 'topic' ? '▸' : '•'} ${node.title}  (${node.type} ${node.id})`
    )
    if (node.children) printTree(node.children, depth + 1)
  }
}

const config = await loadConfig({cwd: work, env, dir})
const connection = await connect(config, {cwd: work})
try {
  const tree = await connection.client.getTree(null)
  const count = (nodes) => nodes.reduce((n, node) => n + 1 + count(node.children ?? []), 0)
  console.log(`\nThe remote tree (${count(tree)} items) in the ${connection.description}:`)
  printTree(tree)
} finally {
  await connection.close()
}
console.log(
  `\nData: ${path.join(dir, '.kbsync', 'local-kb.json')}; sync state: ${path.join(dir, '.kbsync', 'state.json')}`
)
console.log(`Try: node dist/src/cli/bin.js status ${dir}`)
