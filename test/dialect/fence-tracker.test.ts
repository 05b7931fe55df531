/** The one fence tracker the line readers share: the nesting bound, the nested-fence search and the site-syntax pre-passes. */
import {describe, expect, it} from 'vitest'
import {nestedFenceLine} from '../../plugins/code-fence.js'
import {boundContainers} from '../../plugins/container-depth.js'
import {FenceTracker} from '../../plugins/fence-tracker.js'
import {FenceTracker as SiteFenceTracker} from '../../src/dialect/gfm-to-kb/site-syntax/lines.js'

/** Which lines of `lines` a fresh tracker calls code. */
function codeLines(lines: string[]): boolean[] {
  const fences = new FenceTracker()
  return lines.map((line) => fences.isCode(line))
}

describe('FenceTracker', () => {
  it('follows backtick and tilde fences: opening, inside and closing lines are code', () => {
    expect(codeLines(['a', '```js', '~~~', '```', 'b'])).toEqual([false, true, true, true, false])
    expect(codeLines(['~~~~', '~~~', '```', '~~~~~ ', 'b'])).toEqual([true, true, true, true, false])
  })
  it('reads a run of backticks with a backtick after it as inline code, not a fence', () => {
    expect(codeLines(['``` a ` b', 'c'])).toEqual([false, false])
  })
  it('closes a fence on a line ending with a carriage return (a CRLF source split on \\n)', () => {
    expect(codeLines(['```\r', 'x\r', '```\r', 'y\r'])).toEqual([true, true, true, false])
  })
  it('is the tracker the site-syntax pre-passes use', () => {
    expect(SiteFenceTracker).toBe(FenceTracker)
  })
})

describe('its readers', () => {
  const deep = '>'.repeat(120) + ' deep'
  it('the nesting bound escapes a deep line after a closed fence, in a CRLF source too', () => {
    for (const eol of ['\n', '\r\n']) {
      const source = ['```', 'code', '```', deep, ''].join(eol)
      const bounded = boundContainers(source)
      expect(bounded, JSON.stringify(eol)).not.toBe(source)
      expect(bounded).toContain('\\>')
    }
  })
  it('the nesting bound leaves the lines of an open fence alone', () => {
    const source = ['```', deep, '```', ''].join('\n')
    expect(boundContainers(source)).toBe(source)
  })
  it('the nested-fence search names the fence line inside code, in a list item too', () => {
    expect(nestedFenceLine(['- a', '', '    ~~~', '    ```', '    ~~~'].join('\n'))).toEqual({line: 4, guarded: false})
    expect(nestedFenceLine(['```', 'x', '```', '```'].join('\n'))).toBeUndefined()
    expect(nestedFenceLine(['~~~', '\u200B```', '~~~'].join('\n'), true)).toEqual({line: 2, guarded: true})
  })
})
