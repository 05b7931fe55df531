/**
 * The stylesheet of the preview: the page shell (navigation, warnings) and
 * the article view, modelled on how the platform shows an article. Colours
 * of hint blocks and highlights come from `palette.ts`.
 */
import {colorTokens, palette} from './palette.js'

const shell = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.6 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; background: #f6f7f9; }
.kb-layout { display: flex; min-height: 100vh; background: linear-gradient(90deg, #fff 0 279px, #e3e6ea 279px 280px, transparent 280px); }
.kb-nav { flex: 0 0 280px; padding: 16px 12px; position: sticky; top: 0; height: 100vh; overflow-y: auto; font-size: 14px; }
.kb-nav-header { font-weight: 600; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #656d76; margin: 0 8px 8px; }
.kb-nav ul { list-style: none; margin: 0; padding: 0 0 0 14px; }
.kb-nav > ul { padding-left: 0; }
.kb-nav li { margin: 1px 0; }
.kb-nav a { display: block; padding: 3px 8px; border-radius: 6px; color: #1f2328; text-decoration: none; overflow-wrap: anywhere; }
.kb-nav a:hover { background: #f0f2f5; }
.kb-nav a[aria-current="page"] { background: #e8f1fd; color: #0b57d0; font-weight: 600; }
.kb-nav .kb-nav-topic > a { font-weight: 600; }
.kb-nav .kb-nav-topic > a::before { content: "\\25B8\\00a0"; color: #8b949e; }
.kb-nav .kb-nav-article > a::before { content: "\\2022\\00a0"; color: #8b949e; }
.kb-nav a[data-errors]::after { content: "\\00a0\\25CF"; color: #cf222e; font-size: 12px; }
.kb-main { flex: 1 1 auto; min-width: 0; padding: 32px 40px 80px; }
.kb-page { max-width: 860px; margin: 0 auto; background: #fff; border: 1px solid #e3e6ea; border-radius: 10px; padding: 32px 40px; }
.kb-page-path { color: #656d76; font-size: 12px; margin-bottom: 4px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.kb-page-title { font-size: 28px; line-height: 1.25; margin: 0 0 20px; font-weight: 700; }
.kb-children { margin-top: 24px; border-top: 1px solid #e3e6ea; padding-top: 12px; }
.kb-children h2 { font-size: 14px; color: #656d76; margin: 0 0 6px; }
.kb-diagnostics { margin: 0 0 24px; border: 1px solid #f0c36d; background: #fff8e6; border-radius: 8px; padding: 10px 14px; font-size: 14px; }
.kb-diagnostics.kb-has-errors { border-color: #f1a7ab; background: #fff1f1; }
.kb-diagnostics h2 { font-size: 14px; margin: 0 0 6px; }
.kb-diagnostics ul { margin: 0; padding-left: 18px; }
.kb-diagnostic-error .kb-severity { color: #cf222e; font-weight: 600; }
.kb-diagnostic-warning .kb-severity { color: #9a6700; font-weight: 600; }
.kb-diagnostic .kb-where { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; color: #656d76; }
.kb-diagnostic .kb-hint { color: #656d76; }
.kb-source { margin: 8px 0 0; padding: 6px 0; background: #fff; border: 1px solid #e3e6ea; border-radius: 6px; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; overflow-x: auto; }
.kb-source div { white-space: pre; padding: 0 10px; }
.kb-source .kb-line-number { display: inline-block; width: 4ch; color: #8b949e; text-align: right; margin-right: 12px; user-select: none; }
.kb-source .kb-line-error { background: #ffebe9; }
.kb-status { position: fixed; right: 12px; bottom: 12px; font-size: 12px; color: #656d76; background: #fff; border: 1px solid #e3e6ea; border-radius: 12px; padding: 2px 10px; }
.kb-status[data-state="offline"] { color: #cf222e; }
`

const article = `
.kb-article { overflow-wrap: break-word; }
.kb-article > :first-child { margin-top: 0; }
.kb-article h1, .kb-article h2, .kb-article h3 { line-height: 1.3; margin: 1.4em 0 .5em; }
.kb-article h1 { font-size: 24px; }
.kb-article h2 { font-size: 20px; }
.kb-article h3 { font-size: 17px; }
.kb-article p, .kb-article ul, .kb-article ol, .kb-article blockquote, .kb-article table, .kb-article pre { margin: 0 0 1em; }
.kb-article a { color: #0b57d0; text-decoration: none; }
.kb-article a:hover { text-decoration: underline; }
.kb-article blockquote { border-left: 3px solid #d0d7de; padding: 0 0 0 14px; color: #57606a; }
.kb-article code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, monospace; background: #f0f2f5; border-radius: 4px; padding: .1em .35em; }
.kb-article pre { background: #f6f8fa; border: 1px solid #e3e6ea; border-radius: 6px; padding: 12px 14px; overflow-x: auto; }
.kb-article pre code { background: none; padding: 0; }
.kb-article table { border-collapse: collapse; }
.kb-article th, .kb-article td { border: 1px solid #d0d7de; padding: 6px 12px; }
.kb-article th { background: #f6f8fa; }
.kb-article img { max-width: 100%; height: auto; border-radius: 4px; }
.kb-article img[width] { height: auto; }
.kb-article hr { border: 0; border-top: 1px solid #d0d7de; margin: 1.5em 0; }
.kb-article mark { border-radius: 3px; padding: 0 2px; color: inherit; background-color: ${palette.yellow.mark}; }
.kb-article [data-node="hintBlock"] { border-left: 4px solid; border-radius: 6px; padding: 12px 16px; margin: 0 0 1em; }
.kb-article [data-node="hintBlock"] > :last-child { margin-bottom: 0; }
.kb-article details { border: 1px solid #d0d7de; border-radius: 6px; padding: 0 14px; margin: 0 0 1em; }
.kb-article details > summary { cursor: pointer; font-weight: 600; padding: 8px 0; }
.kb-article details[open] > summary { border-bottom: 1px solid #e3e6ea; margin-bottom: 10px; }
.kb-article [data-node="attachmentsGroup"] { display: flex; flex-direction: column; gap: 4px; list-style: none; border: 1px solid #e3e6ea; border-radius: 6px; padding: 8px; margin: 0 0 1em; background: #fafbfc; }
.kb-article [data-node="attachmentsGroup"] > li { margin: 0; }
.kb-article [data-node="attachment"] { display: flex; align-items: center; gap: 8px; padding: 4px 8px; border-radius: 4px; color: #1f2328; }
.kb-article [data-node="attachment"]::before { content: ""; flex: 0 0 auto; width: 10px; height: 13px; border: 1.5px solid #8b949e; border-radius: 2px 5px 2px 2px; }
.kb-article [data-node="attachment"]:hover { background: #eef1f4; text-decoration: none; }
.kb-article [data-node="drawio"], .kb-article iframe, .kb-article video { display: block; max-width: 100%; border: 1px solid #e3e6ea; border-radius: 6px; margin: 0 0 1em; background: #fafbfc; }
.kb-article [data-node="drawio"]:not([width]) { width: 100%; }
.kb-article [data-node="drawio"] { height: 400px; }
.kb-article video, .kb-article [data-node="video"] { width: 640px; aspect-ratio: 16 / 9; height: auto; }
.kb-article [data-node="anchorLink"]:empty { display: inline; }
.kb-article [data-node="anchorLink"] { scroll-margin-top: 16px; }
.kb-article :target { outline: 2px solid #3e83f8; outline-offset: 2px; }
`

/** Per-token rules: hint block background and accent, highlight background. */
function colorRules(): string {
  return colorTokens
    .map((token) => {
      const colors = palette[token]
      return (
        `.kb-article [data-node="hintBlock"][data-color="${token}"] { background-color: ${colors.hintBackground}; border-left-color: ${colors.hintBorder}; }\n` +
        `.kb-article mark[data-color="${token}"] { background-color: ${colors.mark}; }`
      )
    })
    .join('\n')
}

/** The whole stylesheet (page shell, article view, the 11 colours). */
export const stylesheet: string = shell + article + colorRules() + '\n'
