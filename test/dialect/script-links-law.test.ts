/**
 * Law: whatever its spelling and form, a link whose address runs a script
 * reaches no body live, from GFM (`gfmToKb`, what push stores) or from the
 * dialect (`kbsync convert --from kb`): the scheme with any letter case,
 * characters browsers drop inside it (tabs, line feeds, controls), and
 * character references for its letters or colon; in a Markdown link, a
 * reference definition, an autolink, an image, HTML `<a href>`/`<img src>`
 * and the dialect's attachment tag.
 */
import fc from 'fast-check'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {gfmToKb, parseKb, stringifyKb} from '../../src/dialect/index.js'
import {disarmScriptUrls} from '../../src/dialect/gfm-to-kb/script-urls.js'
import {liveScripts} from './live-scripts.js'
import {isScriptUrl} from '../../src/trust/url-scheme.js'

/** One character of a scheme as an author may hide it: itself in any case, or a character reference. */
const letter = (char: string) =>
  fc.oneof(
    fc.constant(char),
    fc.constant(char.toUpperCase()),
    fc.constant(`&#${char.charCodeAt(0)};`),
    fc.constant(`&#x${char.charCodeAt(0).toString(16)};`)
  )
/** What browsers drop inside a scheme. */
const dropped = fc.constantFrom('', '', '', '&#09;', '&#x0A;', '&Tab;', '&NewLine;', '\t')
const scheme = fc
  .constantFrom('javascript', 'vbscript')
  .chain((name) => fc.tuple(...[...name].map((char) => fc.tuple(letter(char), dropped))))
  .map((parts) => parts.map(([char, gap]) => char + gap).join(''))
const colon = fc.constantFrom(':', '&colon;', '&#58;', '&#x3a;')
const address = fc.tuple(scheme, colon).map(([name, sep]) => `${name}${sep}alert(1)`)

/** The forms a link takes, with the address in it (spaces and line endings only where the form allows them). */
const forms: Array<(url: string) => string> = [
  (url) => `[click](<${url}>)`,
  (url) => `[click][r]\n\n[r]: <${url}>`,
  (url) => `![pic](<${url}>)`,
  (url) => `<a href="${url}">click</a>`,
  (url) => `<p><img src="${url}" width="10"></p>`,
  (url) => `<div data-node="attachmentsGroup"><a data-node="attachment" href="${url}">f</a></div>`
]

describe('links that run a script (law)', () => {
  it('reach no body live, from GFM or from the dialect, in any spelling', () => {
    fc.assert(
      fc.property(address, fc.nat(forms.length - 1), (url, form) => {
        expect(isScriptUrl(url)).toBe(true)
        const source = `Text.\n\n${forms[form]!(url)}\n`
        expect(liveScripts(gfmToKb(source).markdown)).toEqual([])
        const file = new VFile({value: source})
        const tree = parseKb(file)
        disarmScriptUrls(tree, file)
        expect(liveScripts(stringifyKb(tree))).toEqual([])
      }),
      {numRuns: 300, seed: 30}
    )
  })
})
