/**
 * Rendering TeX formulas to SVG with MathJax, in process and offline:
 * MathJax's TeX input (its packages, less those that load code, reach
 * outside the formula or hide errors) and SVG output with paths inlined
 * (`fontCache: 'none'`), so each file stands alone as an image. MathJax is
 * loaded on the first formula of a run (about 0.7 s); a run without one
 * never loads it. A formula then takes a few tens of milliseconds.
 */
import {loadOptional} from '../optional.js'
import type {RenderOutcome} from './mermaid-render.js'

/**
 * Packages left out: `require` and `autoload` load extensions at run time,
 * `html` adds links, classes and styles to the output, `action` adds
 * interaction, `noundefined` and `noerrors` turn mistakes into red text
 * (kbsync reports them instead), `bussproofs` needs a second pass.
 */
const excludedPackages = new Set(['require', 'autoload', 'html', 'action', 'noundefined', 'noerrors', 'bussproofs'])

/**
 * The logos KaTeX defines and MathJax does not: docs about math write
 * `\(\KaTeX\)` (Docsy's own page), which would else be refused and published as code.
 */
const logoMacros = {
  TeX: '\\mathrm{T\\kern-.1667em\\raise-.5ex{E}\\kern-.125em X}',
  LaTeX: '\\mathrm{L\\kern-.36em\\raise.21em{\\scriptstyle A}\\kern-.15em}\\TeX',
  KaTeX: '\\mathrm{K\\kern-.17em\\raise.21em{\\scriptstyle A}\\kern-.15em}\\TeX'
}

/** Pixels per ex of the text around a formula (MathJax's own default: 16 px text, 0.5 em). */
export const pixelsPerEx = 8

/** What the renderer keeps loaded: converts one formula to the SVG element's markup. */
type Convert = (tex: string, display: boolean) => string

let loading: Promise<Convert> | undefined

/** Loads MathJax once per process (`import()`: a run without math never pays for it). */
async function load(): Promise<Convert> {
  const [{mathjax}, {TeX}, {SVG}, {liteAdaptor}, {RegisterHTMLHandler}, {AllPackages}] = await loadOptional(
    'mathjax-full',
    () =>
      Promise.all([
        import('mathjax-full/js/mathjax.js'),
        import('mathjax-full/js/input/tex.js'),
        import('mathjax-full/js/output/svg.js'),
        import('mathjax-full/js/adaptors/liteAdaptor.js'),
        import('mathjax-full/js/handlers/html.js'),
        import('mathjax-full/js/input/tex/AllPackages.js')
      ])
  )
  const adaptor = liteAdaptor()
  RegisterHTMLHandler(adaptor)
  const tex = new TeX({
    packages: AllPackages.filter((name: string) => !excludedPackages.has(name)),
    macros: logoMacros,
    // A mistake is the formula's outcome, not red text in the image.
    formatError: (_jax: unknown, error: Error) => {
      throw error
    }
  })
  const document = mathjax.document('', {InputJax: tex, OutputJax: new SVG({fontCache: 'none'})})
  return (source, display) => adaptor.innerHTML(document.convert(source, {display}))
}

/**
 * Renders the TeX `source` (a display formula, or an inline one) to a
 * standalone SVG whose size is in pixels (`pixelsPerEx`), so an image of it
 * sits in text at the text's size; a formula MathJax refuses is an outcome
 * with TeX's message.
 */
export async function renderMath(source: string, display: boolean): Promise<RenderOutcome> {
  const convert = await (loading ??= load())
  let markup: string
  try {
    markup = convert(source, display)
  } catch (error) {
    // MathJax's TeX errors are not `Error`s, but carry a message.
    const message = (error as {message?: unknown} | null)?.message
    return {error: typeof message === 'string' ? message : String(error)}
  }
  if (markup.includes('data-mml-node="merror"')) return {error: 'MathJax could not typeset it'}
  return {svg: standalone(markup)}
}

/**
 * MathJax's `<svg>` as a file: sizes from ex to pixels, the inline
 * `vertical-align` style dropped (an image has none of its own), an XML
 * namespace for `xlink` when used.
 */
function standalone(markup: string): string {
  const open = /^<svg\b[^>]*>/.exec(markup)
  if (!open) return markup
  const attributes = open[0]
    .replace(/\s(width|height)="([\d.]+)ex"/g, (_, name: string, value: string) => {
      const pixels = Math.max(1, Math.round(Number(value) * pixelsPerEx * 100) / 100)
      return ` ${name}="${pixels}"`
    })
    .replace(/\sstyle="[^"]*"/, '')
  const xlink =
    markup.includes('xlink:') && !attributes.includes('xmlns:xlink')
      ? ' xmlns:xlink="http://www.w3.org/1999/xlink"'
      : ''
  return attributes.replace(/>$/, `${xlink}>`) + markup.slice(open[0].length) + '\n'
}
