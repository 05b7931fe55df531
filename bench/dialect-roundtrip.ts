/**
 * Round-trip benchmark of the dialect: parse + stringify of a ~1 MB document
 * dense in dialect constructs with `parseKb`/`stringifyKb`, against plain
 * remark-parse + remark-gfm + remark-stringify on a GFM document of the same
 * size, in the same run. Prints MB/s and the ratio (target: <= 1.3x).
 *
 * Run: `npm run build && node dist/bench/dialect-roundtrip.js`
 */
import {performance} from 'node:perf_hooks'
import {pathToFileURL} from 'node:url'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkStringify from 'remark-stringify'
import {unified} from 'unified'
import {parseKb, stringifyKb} from '../src/dialect/index.js'

const colors = ['red', 'blue', 'green', 'yellow', 'violet', 'gray']

/** One section of the dialect document (varied by `i`). */
function dialectSection(i: number): string {
  const c = colors[i % colors.length]
  return `## Section ${i}

Text with <u>underline ${i}</u>, <mark data-color=${c}>a highlight</mark>, a link to <a data-node=articleLink data-article-id=ART${i}>an article</a>, snake\\_case and **bold** and *em*.
An anchor <a data-node=anchorLink data-id=s${i} /> and a sized image <img src=https://files.example.com/img/${i}.png alt=Shot width=300 height=200>.

<div data-node=hintBlock data-color=${c}>
Tight hint with \`code\` and ~~gone~~ text.
- one
- two
    - nested
</div>

<details>
<summary>More about ${i}</summary>

Details content with a [link](https://example.com/${i}).

| a | b |
| --- | --- |
| ${i} | <mark data-color=red>x</mark> |

</details>

<div data-node="attachmentsGroup">
<a data-node="attachment" href="9b1e3c52-${i}">report_${i}.pdf</a>
<a data-node=attachment href=https://files.example.com/kb?Id=${i}>notes.txt</a>
</div>

<iframe data-node=drawio src=https://viewer.diagrams.net/?url=https://x/${i}.drawio width=600></iframe>

<video src=https://www.youtube.com/embed/v${i}></video>

`
}

/** One section of the plain GFM document (varied by `i`). */
function gfmSection(i: number): string {
  return `## Section ${i}

Text with *emphasis ${i}*, **strong text**, a link to [an article](https://example.com/article/${i}), snake\\_case and \`code\` and ~~gone~~.
An image ![Shot](https://files.example.com/img/${i}.png) in the middle of a sentence with some more words after it.

> A quoted note with \`code\` and ~~gone~~ text.
>
> - one
> - two
>     - nested

Details content with a [link](https://example.com/${i}) and more words to fill the line.

| a | b |
| --- | --- |
| ${i} | **x** |

- [report_${i}.pdf](https://files.example.com/9b1e3c52-${i})
- [notes.txt](https://files.example.com/kb?Id=${i})

1. first
2. second

---

`
}

/** Repeat sections until the document reaches `size` bytes. */
export function buildDocument(section: (i: number) => string, size: number): string {
  const parts: string[] = []
  let length = 0
  for (let i = 0; length < size; i++) {
    const part = section(i)
    parts.push(part)
    length += Buffer.byteLength(part)
  }
  return parts.join('')
}

/** The median of `runs` timings of `run(value)`, in ms. */
export function medianTime(value: string, run: (value: string) => unknown, runs: number): number {
  const times: number[] = []
  for (let index = 0; index < runs; index++) {
    const start = performance.now()
    run(value)
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}

function measure(label: string, value: string, roundTrip: (value: string) => string, runs: number): number {
  roundTrip(value) // warm up
  const median = medianTime(value, roundTrip, runs)
  const megabytes = Buffer.byteLength(value) / 1e6
  const speed = megabytes / (median / 1000)
  console.log(`${label}: ${megabytes.toFixed(2)} MB, median ${median.toFixed(0)} ms, ${speed.toFixed(3)} MB/s`)
  return speed
}

/** Run the benchmark and print the figures; returns them. */
export function runDialectRoundTrip(size = 1_000_000, runs = 3): {dialect: number; gfm: number; ratio: number} {
  const dialectDocument = buildDocument(dialectSection, size)
  const gfmDocument = buildDocument(gfmSection, size)
  const plain = unified().use(remarkParse).use(remarkGfm).use(remarkStringify).freeze()
  console.log(`Dialect round trip (Node ${process.version})`)
  const gfm = measure(
    'remark + remark-gfm (GFM document)',
    gfmDocument,
    (value) => String(plain.processSync(value)),
    runs
  )
  const dialect = measure(
    'kbsync parseKb + stringifyKb (dialect document)',
    dialectDocument,
    (value) => stringifyKb(parseKb(value)),
    runs
  )
  const ratio = gfm / dialect
  console.log(`ratio (time per MB, kbsync / remark-gfm): ${ratio.toFixed(2)}x (target <= 1.3x)`)
  return {dialect, gfm, ratio}
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runDialectRoundTrip(Number(process.argv[2] ?? 1_000_000), Number(process.argv[3] ?? 3))
}
