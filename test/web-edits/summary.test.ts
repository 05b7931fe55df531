/**
 * The words of a pull to a branch: what the commit message and the pull
 * request list (only documents whose file changed; conflicts; other files),
 * and laws of the escaping that keeps titles and paths as text on GitHub.
 */
import fc from 'fast-check'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {toString} from 'mdast-util-to-string'
import type {Paragraph, PhrasingContent, Root} from 'mdast'
import {describe, expect, it} from 'vitest'
import type {PullOp} from '../../src/sync/pull/index.js'
import {oneLine} from '../../src/trust/index.js'
import {
  codeSpan,
  commitMessage,
  isEmptySummary,
  markdownText,
  pullRequestBody,
  summarise,
  summaryTitle
} from '../../src/cli/web-edits/summary.js'

const parser = unified().use(remarkParse).use(remarkGfm)

/** The phrasing content of the first paragraph of `markdown`. */
function inline(markdown: string): PhrasingContent[] {
  const tree = parser.runSync(parser.parse(markdown)) as Root
  const paragraph = tree.children[0] as Paragraph | undefined
  return paragraph?.children ?? []
}

function op(partial: Partial<PullOp> & Pick<PullOp, 'op' | 'file' | 'title'>): PullOp {
  return {path: partial.file, id: 'ID1', type: 'article', reason: 'changed on the platform', ...partial}
}

describe('summarise', () => {
  const ops = [
    op({op: 'update', file: 'Install.md', title: 'Install', id: 'A'}),
    op({op: 'update', file: 'Same.md', title: 'Same', id: 'B'}),
    op({op: 'create', file: 'Guides/New.md', title: 'New', id: 'C'}),
    op({op: 'conflict', file: 'Both.md', title: 'Both', id: 'D', reason: 'edited on the platform and locally'}),
    op({op: 'update', file: 'Linked.md', title: 'Linked', id: 'E', refresh: true})
  ]
  const changed = new Set([
    'docs/Install.md',
    'docs/Guides/New.md',
    'docs/Both.remote.md',
    'docs/Linked.md',
    'docs/_assets/Install/logo.png'
  ])
  const summary = summarise(ops, ['Both.remote.md'], 'docs', changed)

  it('lists the documents whose file changed, the conflicts, and the other files', () => {
    expect(summary.documents.map((d) => `${d.kind} ${d.file}`)).toEqual([
      'update docs/Install.md',
      'create docs/Guides/New.md',
      'conflict docs/Both.md'
    ])
    expect(summary.conflictCopies).toEqual(['docs/Both.remote.md'])
    expect(summary.otherFiles).toEqual(['docs/Linked.md', 'docs/_assets/Install/logo.png'])
    expect(isEmptySummary(summary)).toBe(false)
    expect(isEmptySummary(summarise([], [], '', new Set()))).toBe(true)
  })

  it('says so in the commit message and the pull request, conflicts included', () => {
    expect(summaryTitle(summary)).toBe('kbsync: web edits from the knowledge base (2 documents, 1 conflict)')
    const message = commitMessage(summary, 'https://api.pyrus.com/v4')
    expect(message).toContain('  updated article docs/Install.md "Install" (A)')
    expect(message).toContain('  added article docs/Guides/New.md "New" (C)')
    expect(message).toContain('  docs/Both.remote.md')
    const body = pullRequestBody(summary, 'https://api.pyrus.com/v4')
    expect(body).toContain('### Changed on the platform (2)')
    expect(body).toContain('- updated article `docs/Install.md`: "Install" (id `A`)')
    expect(body).toContain('### Conflicts (1)')
    expect(body).toContain('- `docs/Both.md` "Both": edited on the platform and locally')
    expect(body).toContain('- `docs/Both.remote.md`')
    expect(body).toContain('### Other files (2)')
  })

  it('caps a long list with a count of the rest', () => {
    const many = Array.from({length: 250}, (_, i) => op({op: 'update', file: `F${i}.md`, title: `T${i}`, id: `I${i}`}))
    const files = new Set(many.map((o) => `${o.file}`))
    const body = pullRequestBody(summarise(many, [], '', files), 'kb')
    expect(body).toContain('... and 50 more')
    expect(body.length).toBeLessThan(65_536)
  })
})

describe('escaping for GitHub', () => {
  it('keeps a hostile title as text: no mention, link, HTML, emphasis or entity', () => {
    const title = '@acme/owners <img src=x> [click](https://evil.example) *bold* &amp; https://x.example'
    const nodes = inline(`x "${markdownText(title)}"`)
    expect(nodes.map((n) => n.type)).toEqual(['text'])
    expect(toString(nodes[0]!).replace(/\u200b/g, '')).toBe(`x "${title}"`)
  })

  it('law: a code span holds any path exactly, on one line', () => {
    fc.assert(
      fc.property(
        fc.string({minLength: 1, maxLength: 40, unit: fc.constantFrom('a', ' ', '`', '\\', '*', '\n', 'é')}),
        (text) => {
          const line = oneLine(text)
          const nodes = inline(`x ${codeSpan(text)} y`)
          const code = nodes.find((n) => n.type === 'inlineCode')
          expect(code?.type === 'inlineCode' ? code.value : undefined).toBe(line)
        }
      ),
      {numRuns: 300}
    )
  })

  it('law: escaped text reads back as itself (zero-width spaces aside), as plain text', () => {
    const unit = fc.constantFrom(...'ab @*_`[]()<>#!|~&:;\\/.-=+{}'.split(''), 'https://', 'www.')
    fc.assert(
      fc.property(fc.string({minLength: 1, maxLength: 30, unit}), (text) => {
        const nodes = inline(`x "${markdownText(text)}"`)
        expect(nodes.every((n) => n.type === 'text')).toBe(true)
        expect(
          nodes
            .map((n) => toString(n))
            .join('')
            .replace(/\u200b/g, '')
        ).toBe(`x "${text}"`)
      }),
      {numRuns: 300}
    )
  })
})
