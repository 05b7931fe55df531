/**
 * Fixtures of the outward conversions: every case `fixtures/convert/kb-to-<target>-*`
 * holds `input.md` (the dialect), `output.md`/`output.html` and
 * `messages.json`. Set UPDATE_CONVERT_FIXTURES=1 to rewrite the expectations
 * (then review the diff).
 */
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {kbToCommentHtml, kbToGfm, kbToHtml, parseKb} from '../../src/dialect/index.js'

const root = join(import.meta.dirname, '..', '..', 'fixtures', 'convert')
const update = process.env.UPDATE_CONVERT_FIXTURES === '1'

function parseMessages(markdown: string): VFileMessage[] {
  const file = new VFile({value: markdown})
  parseKb(file)
  return file.messages
}

const targets: Array<
  [prefix: string, ext: string, run: (input: string) => {output: string; messages: VFileMessage[]}]
> = [
  [
    'kb-to-gfm-',
    'md',
    (input) => {
      const {markdown, messages} = kbToGfm(input)
      return {output: markdown, messages}
    }
  ],
  ['kb-to-html-', 'html', (input) => ({output: kbToHtml(input) + '\n', messages: parseMessages(input)})],
  ['kb-to-comment-html-', 'html', (input) => ({output: kbToCommentHtml(input) + '\n', messages: parseMessages(input)})]
]

const cases = readdirSync(root)
  .filter((name) => targets.some(([prefix]) => name.startsWith(prefix)))
  .sort()

function plain(messages: VFileMessage[]) {
  return messages.map((m) => ({line: m.line, column: m.column, ruleId: m.ruleId, reason: m.reason}))
}

describe('outward conversion fixtures', () => {
  it('has cases for every target', () => {
    for (const [prefix] of targets) expect(cases.some((name) => name.startsWith(prefix))).toBe(true)
  })

  for (const name of cases) {
    it(name, () => {
      const [, ext, run] = targets.find(([prefix]) => name.startsWith(prefix))!
      const dir = join(root, name)
      const input = readFileSync(join(dir, 'input.md'), 'utf8')
      const {output, messages} = run(input)
      const outputPath = join(dir, `output.${ext}`)
      const messagesPath = join(dir, 'messages.json')
      if (update || !existsSync(outputPath)) {
        writeFileSync(outputPath, output)
        writeFileSync(messagesPath, JSON.stringify(plain(messages), null, 2) + '\n')
      }
      expect(output).toBe(readFileSync(outputPath, 'utf8'))
      expect(plain(messages)).toEqual(JSON.parse(readFileSync(messagesPath, 'utf8')))
    })
  }
})
