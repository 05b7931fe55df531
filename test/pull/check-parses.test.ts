/**
 * The check after a pull does not parse a body its proof already parsed
 * (issue 32): the proof parses each body where its file holds it and hands
 * what it found to the check's scan, keyed by the exact bytes. A file
 * changed between its write and the check has other bytes: it is parsed,
 * and the check still reports that it does not render back.
 */
import {readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import {beforeAll, describe, expect, it} from 'vitest'
import {serverSuite} from './server-suite.js'
import type {KbClient} from '../../src/api/index.js'
import {pull, pullBody, documentText} from '../../src/sync/pull/index.js'
import {bodyPlaceOf, type FileFields} from '../../src/sync/pull/body-place.js'
import {
  bodyKeyOf,
  dropPositions,
  forgetHandedOver,
  handedTreesMax,
  parseBodyFacts,
  scanParses
} from '../../src/local/index.js'
import {reserveHandedTree} from '../../src/local/body-facts.js'
import {bodyTreeParses} from '../../src/local/markdown.js'
import {withTree} from '../../src/sync/pull/body-place.js'
import {bodyOf, readDocumentHead} from '../../src/local/body.js'

const suite = serverSuite('check-parses')
let client: KbClient
beforeAll(() => {
  client = suite.client()
})

/** A topic of `count` articles, each linking to the next: headings, a list, a table, code. */
async function topicOfArticles(title: string, count: number): Promise<string> {
  const root = (await client.createItem({type: 'topic', title, parent_topic_id: null})).id
  let previous: string | undefined
  for (let n = count - 1; n >= 0; n--) {
    const link = previous
      ? `<p>Next: <a data-node="articleLink" data-article-id="${previous}">the next page</a>.</p>`
      : '<p>The last page.</p>'
    const body = `<h2>Part ${n}</h2><p>Some <strong>text</strong> and <a href="https://example.com/${n}">a site</a>.</p><ul><li>one</li><li>two</li></ul><pre><code>let x = ${n}</code></pre>${link}`
    previous = (await client.createItem({type: 'article', title: `Page ${n}`, parent_topic_id: root, body})).id
  }
  return root
}

const notExact = (result: Awaited<ReturnType<typeof pull>>) =>
  result.diagnostics.filter((d) => d.rule === 'pull-not-exact').map((d) => path.basename(d.file ?? ''))

describe('the check after a pull', () => {
  it('parses no body the proof parsed', async () => {
    const root = await topicOfArticles('Parsed once', 6)
    const dir = await suite.folder()
    const before = scanParses()
    const rendered = bodyTreeParses()
    const result = await pull({dir, client, rootTopicId: root})
    expect(result.status).toBe('ok')
    expect(result.written.filter((file) => file.endsWith('.md'))).toHaveLength(6)
    // Today's main parsed each of the 6 pulled bodies again in the check's scan.
    expect(scanParses() - before).toBe(0)
    // And again to render each (the scan took the facts, not the tree): 6 parses before the tree was handed over.
    expect(bodyTreeParses() - rendered).toBe(0)
    expect(notExact(result)).toEqual([])
  })

  it('hands over at most a bounded number of trees, until the check is over', () => {
    forgetHandedOver()
    const place = {linesBefore: 3}
    const given = Array.from({length: handedTreesMax + 5}, () => withTree(place).withTree === true)
    expect(given.filter(Boolean)).toHaveLength(handedTreesMax)
    expect(given.slice(handedTreesMax)).toEqual([false, false, false, false, false])
    expect(reserveHandedTree()).toBe(false)
    forgetHandedOver()
    expect(reserveHandedTree()).toBe(true)
    forgetHandedOver()
  })

  it('parses a file changed between its write and the check, and reports it', async () => {
    const root = await topicOfArticles('Changed meanwhile', 4)
    const dir = await suite.folder()
    const before = scanParses()
    const rendered = bodyTreeParses()
    let changed: string | undefined
    const result = await pull({
      dir,
      client,
      rootTopicId: root,
      onEvent: (event) => {
        if (event.type !== 'done' || changed !== undefined || !event.op.file.endsWith('.md')) return
        changed = event.op.file
        const file = path.join(dir, changed)
        // Synchronous in the event: the check, after every write, reads this text.
        writeFileSync(file, readFileSync(file, 'utf8').replace('Some', 'Other'))
      }
    })
    expect(changed).toBeDefined()
    expect(scanParses() - before).toBe(1)
    // The changed file's tree is the scan's own parse: rendered without another.
    expect(bodyTreeParses() - rendered).toBe(0)
    expect(notExact(result)).toEqual([path.basename(changed!)])
  })
})

describe('the facts the proof hands over', () => {
  it('are what the scan finds parsing the file it wrote', () => {
    const bodies = [
      'A *b* [c](https://x.test/c) and a [link](https://kb.test/article/12).\n\n| a | b |\n| - | - |\n| 1 | 2 |\n',
      '# Title\n\nText with `code` and ![image](https://files.test/i.png).\n\n```js\nlet x\n```\n',
      '<p>Bad <strong>nesting</p>\n\n- a\n  - b\n'
    ]
    const answers = {documentOf: () => 'other.md', assetOf: () => undefined, diagramOf: () => undefined}
    const fields: FileFields[] = [
      {title: 'Page'},
      {title: 'Page', id: '7'},
      {title: 'x: "y"', id: '8', permissions: {readers: [1], editors: []}}
    ]
    for (const body of bodies)
      for (const field of fields) {
        const file = 'dir/page.md'
        const pulled = pullBody(body, field.title, {file, ...answers}, bodyPlaceOf(field))
        const text = documentText(field, pulled.text)
        const scanned = bodyOf(readDocumentHead(text, file, []), false).body
        expect(pulled.parsed?.key).toBe(bodyKeyOf(file, scanned))
        expect(pulled.parsed?.facts).toEqual(parseBodyFacts(scanned, file).facts)
        expect(pulled.parsed?.tree).toBeUndefined()
        // With its tree: the parse the scan would make of the file, positions dropped.
        const withIt = pullBody(body, field.title, {file, ...answers}, {...bodyPlaceOf(field), withTree: true})
        const parsed = parseBodyFacts(scanned, file).tree
        dropPositions(parsed)
        expect(withIt.parsed?.tree).toEqual(parsed)
        expect(withIt.text).toBe(pulled.text)
      }
  })

  it('sit where the file puts the body, whatever the title', () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), fc.boolean(), (title, id, permissions) => {
        const fields = {
          title,
          ...(id ? {id: '42'} : {}),
          ...(permissions ? {permissions: {readers: [2], editors: [3]}} : {})
        }
        const text = documentText(fields, 'BODY')
        expect(bodyPlaceOf(fields).linesBefore).toBe(text.slice(0, text.lastIndexOf('BODY')).split('\n').length - 1)
      })
    )
  })
})
