/**
 * Hugo shortcodes and Liquid tags at their edges, one input at a time: trim
 * marks, quoting, tags without a name or never closed, lone tags of a
 * paired family, blocks inside a `comment`, escaped tags in code, Liquid
 * branches (`case`/`when`, a stray `else`), raw spans inside a line, outputs
 * in a link's address, and kramdown attribute lists after inline markup.
 * What a reader sees is the output; what is lost is named in the warnings.
 * The common forms are fixtures: `fixtures/convert/gfm-to-kb-hugo-*`, `-liquid-*`.
 */
import {describe, expect, it} from 'vitest'
import {gfmToKb} from '../../src/dialect/index.js'

const convert = (source: string) => gfmToKb(source, {path: 'page.md'})

describe('Hugo shortcodes', () => {
  it('accepts trim marks on both sides of a tag', () => {
    expect(convert('{{<- note ->}}\nTrimmed.\n{{< /note >}}\n').markdown).toBe(
      '<div data-node="hintBlock" data-color="blue">\n\nTrimmed.\n\n</div>\n'
    )
  })

  it('leaves out a block family’s tag that is never closed, and a `highlight` without its code', () => {
    const {markdown, messages} = convert('Lone {{< warning >}} and {{< highlight go >}} stay out.\n')
    expect(markdown).toBe('Lone  and  stay out.\n')
    expect(messages).toEqual([])
  })

  it('writes no bold label for a card whose header is only markup', () => {
    expect(convert('{{< card header="**  **" >}}\nNo label.\n{{< /card >}}\n').markdown).toBe('No label.\n')
  })

  it('makes a `tab` of a `tabpane` code in the pane’s language', () => {
    const source = '{{< tabpane lang="js" >}}\n{{< tab >}}\nlet a\n{{< /tab >}}\n{{< /tabpane >}}\n'
    expect(convert(source).markdown).toBe('```js\nlet a\n```\n')
  })

  it('leaves out a link target, a video and a figure that name nothing', () => {
    const source = 'Ref {{< ref >}} end. Video {{< youtube >}} end. Figure {{< figure alt="x" >}} end.\n'
    expect(convert(source)).toMatchObject({markdown: 'Ref  end. Video  end. Figure  end.\n', messages: []})
  })

  it('writes a figure’s address with spaces in angle brackets and escapes the quotes of its title', () => {
    expect(convert(String.raw`{{< figure src="my image.png" title="A \"q\"" >}}` + '\n').markdown).toBe(
      '![](<my image.png> "A \\"q\\"")\n'
    )
  })

  it('reads a tag whose arguments run over several lines, a `>}}` inside a quoted value being no end', () => {
    expect(convert('{{< figure src="a.png"\n  alt="one" caption="x >}} y"\n  title="t" >}}\n').markdown).toBe(
      '![one](a.png "t")\n\n*x >}} y*\n'
    )
  })

  it('reads raw and escaped quoted arguments, self-closing tags, and names the arguments it loses', () => {
    const source = '{{< x `raw arg` >}} and {{< y "a \\"b\\"" k=v/>}} end\n'
    const {markdown, messages} = convert(source)
    expect(markdown).toBe('and  end\n')
    expect(messages.map((message) => message.reason)).toEqual([
      expect.stringContaining(
        'The shortcode `x` is not known to kbsync (1 place): its content is kept, its arguments ("raw arg")'
      ),
      expect.stringContaining(
        'The shortcode `y` is not known to kbsync (1 place): its content is kept, its arguments ("a \\"b\\"" k="v")'
      )
    ])
  })

  it('names an empty shortcode tag as such, which Hugo refuses to build, at its line, and leaves it out', () => {
    const {markdown, messages} = convert('Text {{< >}} and {{% %}}.\n\n{{<  >}}\n')
    expect(markdown).toBe('Text  and .\n')
    expect(messages.map((message) => [message.ruleId, message.line, message.column])).toEqual([
      ['kb-shortcode-empty', 1, 6],
      ['kb-shortcode-empty', 1, 18]
    ])
    expect(messages[0]!.reason).toBe(
      'An empty shortcode tag `{{< >}}` (2 places, the first here) names no shortcode: Hugo refuses to build the page ("shortcode has no name"), and kbsync leaves it out. Remove it, or write the name of the shortcode it was meant to call.'
    )
  })

  it('says an unknown shortcode without arguments lost none', () => {
    const {messages} = convert('{{< bare >}}{{< /bare >}}\n')
    expect(messages.map((message) => message.reason)).toEqual([
      expect.stringContaining("its arguments (none) and what the site's template")
    ])
  })

  it('is no tag when a quoted or raw value is never closed: the text stays, counted as template syntax', () => {
    const {markdown, messages} = convert('A {{< z "unclosed >}} and {{< w `open >}} end\n')
    expect(markdown).toBe('A {{< z "unclosed >}} and {{< w \\`open >}} end\n')
    expect(messages.map((message) => [message.ruleId, message.column])).toEqual([['kb-template-syntax', 3]])
  })

  it('drops a closing tag that closes nothing', () => {
    expect(convert('Stray close {{< /nothing >}} here.\n')).toMatchObject({
      markdown: 'Stray close  here.\n',
      messages: []
    })
  })

  it('leaves out everything inside `comment`: code, escaped tags, inline code and other shortcodes', () => {
    const source = [
      'Before.',
      '',
      '{{< comment >}}',
      '```',
      'code {{</* x */>}}',
      '```',
      'Text `{{</* y */>}}` and {{</* z */>}} and {{< note >}}in{{< /note >}}.',
      '{{< /comment >}}',
      '',
      'After.'
    ].join('\n')
    expect(convert(source + '\n')).toMatchObject({markdown: 'Before.\n\nAfter.\n', messages: []})
  })

  it('shows an escaped tag in code as Hugo does, leaving a real tag there as written', () => {
    expect(convert('```\n{{</* a */>}} and {{< b >}}\n```\n').markdown).toBe('```\n{{< a >}} and {{< b >}}\n```\n')
  })
})

describe('Liquid', () => {
  it('keeps a raw span inside a line: plain text as itself, template syntax as inline code', () => {
    const source = 'A {% raw %}plain text{% endraw %} b, c {% raw %}{{ x }}{% endraw %} d.\n'
    expect(convert(source)).toMatchObject({markdown: 'A plain text b, c `{{ x }}` d.\n', messages: []})
  })

  it('leaves an output of the site’s data out, and an unclosed `{{` as text', () => {
    const {markdown, messages} = convert('Out {{ site.title }} and {{ unclosed\n')
    expect(markdown).toBe('Out  and {{ unclosed\n')
    expect(messages.map((message) => [message.ruleId, message.column])).toEqual([
      ['kb-liquid-output', 5],
      ['kb-template-syntax', 10]
    ])
  })

  it('leaves out the address an output starts after a stray `]`, and only the output where no `)` ends one', () => {
    const {markdown} = convert('Stray ]({{ site.repository }}/x) and [open]({{ site.repository }}/y no close\n')
    expect(markdown).toBe('Stray ] and \\[open]\\(/y no close\n')
  })

  it('makes a link whose text opened on a line above its text when an output starts its address', () => {
    const source = 'The [docs\nfolder]({{ site.repository }}/tree/master/docs) and [a [b] c\nd]({{ site.x }}/y) end.\n'
    expect(convert(source).markdown).toBe('The docs\nfolder and a \\[b] c\nd end.\n')
  })

  it('leaves a loop out with the conditions inside it, counting the loop only', () => {
    const source = '{% for x in site.data.a %}\n{% if x %}in loop{% else %}other{% endif %}\n{% endfor %}\n\nAfter.\n'
    const {markdown, messages} = convert(source)
    expect(markdown).toBe('After.\n')
    expect(messages.map((message) => message.ruleId)).toEqual(['kb-liquid-loop'])
  })

  it('keeps the first `when` of a `case`, and ignores a branch tag outside any condition', () => {
    const source =
      '{% case v %}\n{% when 1 %}\none\n{% when 2 %}\ntwo\n{% else %}\nmore\n{% endcase %}\n\nStray {% else %}else {% when 3 %}when.\n'
    const {markdown, messages} = convert(source)
    expect(markdown).toBe('one\n\nStray else when.\n')
    expect(messages.map((message) => [message.ruleId, message.line])).toEqual([['kb-liquid-condition', 1]])
  })

  it('leaves a `{%` with no `%}` on its line, and a tag without a name, as text (counted once)', () => {
    const {markdown, messages} = convert('Broken {% tag\n\nEmpty {% %} tag.\n')
    expect(markdown).toBe('Broken {% tag\n\nEmpty {% %} tag.\n')
    expect(messages.map((message) => [message.ruleId, message.line])).toEqual([['kb-template-syntax', 1]])
    expect(messages[0]!.reason).toContain('2 places of Liquid or kramdown syntax')
  })

  it('makes a `highlight` without a language a fence without one', () => {
    expect(convert('{% highlight %}\ncode\n{% endhighlight %}\n').markdown).toBe('```\ncode\n```\n')
  })
})

describe('kramdown attribute lists', () => {
  it('leaves out a list right after a link or emphasis; the Liquid left as text is counted at its place', () => {
    const {markdown, messages} = convert('[link](https://example.com){:.external} and *em*{: .c} then {{ x }}\n')
    expect(markdown).toBe('[link](https://example.com) and *em* then {{ x }}\n')
    expect(messages.map((message) => [message.ruleId, message.column])).toEqual([['kb-template-syntax', 55]])
    expect(messages[0]!.reason).toContain('1 place of Liquid or kramdown syntax')
  })
})
