/**
 * Random documents in the docs-site syntaxes kbsync reads, for the merge's
 * laws: each generated block is one top-level block of the dialect tree.
 */
import fc from 'fast-check'

const pool = ['alpha', 'bravo', 'delta', 'echo', 'golf', 'hotel', 'india', 'kilo', 'lima', 'oscar', 'papa', 'romeo']

const words = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...pool), {minLength: min, maxLength: max}).map((list) => list.join(' '))
const sentence = words(2, 7).map((text) => text[0]!.toUpperCase() + text.slice(1) + '.')

/** A block's source, given its index (adjacent lists must not read as one). */
type Block = (index: number) => string

const paragraph = sentence.map(
  (text): Block =>
    () =>
      text
)
const heading = fc.tuple(fc.constantFrom('##', '###'), words(1, 4), fc.constantFrom(...pool)).map(
  ([hashes, text, id]): Block =>
    () =>
      `${hashes} ${text} {#${id}-id}`
)
const bulletList = fc.array(sentence, {minLength: 1, maxLength: 3}).map(
  (items): Block =>
    (index) =>
      items.map((item) => `${'-*+'[index % 3]} ${item}`).join('\n')
)
const orderedList = fc.array(sentence, {minLength: 1, maxLength: 3}).map(
  (items): Block =>
    (index) =>
      items.map((item, n) => `${n + 1}${index % 2 ? ')' : '.'} ${item}`).join('\n')
)
const code = fc
  .tuple(
    fc.constantFrom('```', '~~~', '````'),
    fc.constantFrom('js', 'py', ''),
    fc.array(words(1, 4), {minLength: 1, maxLength: 3})
  )
  .map(
    ([fence, lang, lines]): Block =>
      () =>
        `${fence}${lang}\n${lines.join('\n')}\n${fence}`
  )
const table = fc
  .tuple(words(1, 1), words(1, 1), fc.array(fc.tuple(words(1, 2), words(1, 2)), {minLength: 1, maxLength: 2}))
  .map(
    ([a, b, rows]): Block =>
      () =>
        [`| ${a} | ${b} |`, '|---|---|', ...rows.map(([x, y]) => `| ${x} | ${y} |`)].join('\n')
  )
const alert = fc
  .tuple(fc.constantFrom('NOTE', 'TIP', 'WARNING', 'CAUTION'), sentence, fc.option(sentence, {nil: undefined}))
  .map(
    ([kind, first, second]): Block =>
      () =>
        `> [!${kind}]\n> ${first}` + (second ? `\n>\n> ${second}` : '')
  )
const colons = fc
  .tuple(
    fc.constantFrom('note', 'tip', 'info', 'warning', 'danger'),
    fc.option(words(1, 3), {nil: undefined}),
    sentence
  )
  .map(
    ([kind, title, body]): Block =>
      () =>
        `:::${kind}${title ? ' ' + title : ''}\n\n${body}\n\n:::`
  )
const bangs = fc
  .tuple(
    fc.constantFrom('note', 'tip', 'warning'),
    fc.option(words(1, 3), {nil: undefined}),
    fc.array(sentence, {minLength: 1, maxLength: 2})
  )
  .map(
    ([kind, title, body]): Block =>
      () =>
        `!!! ${kind}${title ? ` "${title}"` : ''}\n` + body.map((line) => '    ' + line).join('\n\n')
  )
const details = fc.tuple(words(1, 3), sentence).map(
  ([summary, body]): Block =>
    () =>
      `<details>\n<summary>${summary}</summary>\n\n${body}\n\n</details>`
)

/** One block of any kind. */
export const block = fc.oneof(
  paragraph,
  paragraph,
  heading,
  bulletList,
  orderedList,
  code,
  table,
  alert,
  colons,
  bangs,
  details
)

const frontMatter = fc
  .tuple(words(1, 3), fc.nat(9))
  .map(([title, position]) => `---\ntitle: ${title}\nsidebar_position: ${position}\n---\n\n`)

/** A generated document: its front matter and its blocks' sources, in order. */
export interface Document {
  frontMatter: string
  blocks: string[]
  text: string
}

/** A random document: optional front matter and 1 to 8 blocks. */
export const document: fc.Arbitrary<Document> = fc
  .tuple(fc.option(frontMatter, {nil: undefined}), fc.array(block, {minLength: 1, maxLength: 8}))
  .map(([front, makers]) => {
    const blocks = makers.map((make, index) => make(index))
    return {frontMatter: front ?? '', blocks, text: (front ?? '') + blocks.join('\n\n') + '\n'}
  })
