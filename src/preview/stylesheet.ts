/**
 * The stylesheet of the preview: the page shell (navigation tree, drawer,
 * problems) and the article view, modelled on how the platform shows an
 * article. Every colour is a variable of `palette.ts` (light, and dark when
 * the system asks for it). Below `drawerBreakpoint` the navigation becomes a
 * drawer a button opens, and nothing makes the page scroll sideways: wide
 * tables and code scroll inside their own box.
 */
import {codePalette, colorTokens, palette, schemeVariables} from './palette.js'

/** The widest viewport (px) that shows the navigation as a drawer. */
export const drawerBreakpoint = 860

const shell = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.6 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--kb-text); background: var(--kb-background); }
.kb-layout { display: flex; min-height: 100vh; }
.kb-nav { flex: 0 0 300px; width: 300px; padding: 16px 12px; position: sticky; top: 0; height: 100vh; overflow-y: auto; font-size: 14px; background: var(--kb-surface); border-right: 1px solid var(--kb-border); }
.kb-nav-header { font-weight: 600; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--kb-muted); margin: 0 8px 8px; }
.kb-nav-filter { display: block; width: calc(100% - 8px); margin: 0 4px 10px; padding: 6px 10px; font: inherit; color: var(--kb-text); background: var(--kb-background); border: 1px solid var(--kb-border); border-radius: 6px; }
.kb-nav-filter:focus { outline: 2px solid var(--kb-link); outline-offset: -1px; }
.kb-nav-empty { color: var(--kb-muted); margin: 4px 8px; }
.kb-nav ul { list-style: none; margin: 0; padding: 0 0 0 14px; }
.kb-nav-tree { padding-left: 0 !important; }
.kb-nav li { margin: 1px 0; }
.kb-nav li[hidden] { display: none; }
.kb-nav a { display: block; flex: 1 1 auto; min-width: 0; padding: 3px 8px; border-radius: 6px; color: var(--kb-text); text-decoration: none; overflow-wrap: anywhere; }
.kb-nav a:hover { background: var(--kb-hover); }
.kb-nav a[aria-current="page"] { background: var(--kb-current-background); color: var(--kb-link); font-weight: 600; }
.kb-nav .kb-nav-match > a, .kb-nav .kb-nav-match > details > summary > a { text-decoration: underline; text-decoration-color: var(--kb-link); }
.kb-nav summary { display: flex; align-items: flex-start; list-style: none; cursor: pointer; }
.kb-nav summary::-webkit-details-marker { display: none; }
.kb-nav summary::before { content: "\\25B8"; flex: 0 0 16px; width: 16px; padding-top: 3px; text-align: center; color: var(--kb-muted); transition: transform .12s; }
.kb-nav details[open] > summary::before { transform: rotate(90deg); }
.kb-nav .kb-nav-topic > details > summary > a { font-weight: 600; }
.kb-nav .kb-nav-leaf > a { padding-left: 24px; }
.kb-nav a[data-errors]::after { content: "\\00a0\\25CF"; color: var(--kb-error-text); font-size: 12px; }
.kb-drawer-toggle { position: absolute; opacity: 0; pointer-events: none; }
.kb-topbar, .kb-backdrop { display: none; }
.kb-main { flex: 1 1 auto; min-width: 0; padding: 32px 40px 80px; }
.kb-page { max-width: 860px; margin: 0 auto; background: var(--kb-surface); border: 1px solid var(--kb-border); border-radius: 10px; padding: 32px 40px; }
.kb-page-path { color: var(--kb-muted); font-size: 12px; margin-bottom: 4px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.kb-page-title { font-size: 28px; line-height: 1.25; margin: 0 0 20px; font-weight: 700; overflow-wrap: anywhere; }
.kb-children { margin-top: 24px; border-top: 1px solid var(--kb-border); padding-top: 12px; }
.kb-children h2 { font-size: 14px; color: var(--kb-muted); margin: 0 0 6px; }
.kb-children a { color: var(--kb-link); text-decoration: none; }
.kb-diagnostics { margin: 0 0 24px; border: 1px solid var(--kb-warning-border); background: var(--kb-warning-background); border-radius: 8px; padding: 8px 14px; font-size: 14px; }
.kb-diagnostics.kb-has-errors { border-color: var(--kb-error-border); background: var(--kb-error-background); }
.kb-diagnostics h2 { font-size: 14px; margin: 0 0 6px; }
.kb-diagnostics ul { margin: 0; padding-left: 18px; }
.kb-warnings > summary { cursor: pointer; display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; }
.kb-warnings > summary::-webkit-details-marker { display: none; }
.kb-warnings > summary::before { content: "\\25B8"; color: var(--kb-warning-text); transition: transform .12s; }
.kb-warnings[open] > summary::before { transform: rotate(90deg); }
.kb-warnings[open] > summary { margin-bottom: 6px; }
.kb-has-errors .kb-warnings { margin-top: 8px; }
.kb-warnings-count { font-weight: 600; }
.kb-rule-counts { display: flex; flex-wrap: wrap; gap: 4px 6px; min-width: 0; }
.kb-rule-count { font: 12px/1.6 ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--kb-muted); border: 1px solid var(--kb-warning-border); border-radius: 10px; padding: 0 8px; overflow-wrap: anywhere; }
.kb-rule-count b { color: var(--kb-text); }
.kb-diagnostic { overflow-wrap: anywhere; }
.kb-diagnostic-error .kb-severity { color: var(--kb-error-text); font-weight: 600; }
.kb-diagnostic-warning .kb-severity { color: var(--kb-warning-text); font-weight: 600; }
.kb-diagnostic .kb-where { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; color: var(--kb-muted); }
.kb-diagnostic .kb-hint { color: var(--kb-muted); }
.kb-source { margin: 8px 0 0; padding: 6px 0; background: var(--kb-surface); border: 1px solid var(--kb-border); border-radius: 6px; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; overflow-x: auto; }
.kb-source div { white-space: pre; padding: 0 10px; width: max-content; min-width: 100%; }
.kb-source .kb-line-number { display: inline-block; width: 4ch; color: var(--kb-muted); text-align: right; margin-right: 12px; user-select: none; }
.kb-source .kb-line-error { background: var(--kb-error-background); }
.kb-progress { margin: 0 0 16px; font-size: 13px; color: var(--kb-muted); }
.kb-status { position: fixed; right: 12px; bottom: 12px; font-size: 12px; color: var(--kb-muted); background: var(--kb-surface); border: 1px solid var(--kb-border); border-radius: 12px; padding: 2px 10px; }
.kb-status[data-state="offline"] { color: var(--kb-error-text); }
`

/** Above the breakpoint the drawer's switch is no stop of the keyboard's. */
const wide = `
@media (min-width: ${drawerBreakpoint + 1}px) { .kb-drawer-toggle { display: none; } }
`

/** Below the breakpoint: a top bar with the drawer's button, the navigation sliding over the page. */
const drawer = `
@media (max-width: ${drawerBreakpoint}px) {
  .kb-topbar { display: flex; align-items: center; gap: 8px; position: sticky; top: 0; z-index: 20; padding: 8px 12px; background: var(--kb-surface); border-bottom: 1px solid var(--kb-border); }
  .kb-drawer-button { display: inline-flex; align-items: center; gap: 6px; padding: 6px 12px; border: 1px solid var(--kb-border); border-radius: 6px; background: var(--kb-background); color: var(--kb-text); font-weight: 600; cursor: pointer; user-select: none; }
  .kb-drawer-toggle:focus-visible + .kb-topbar .kb-drawer-button { outline: 2px solid var(--kb-link); }
  .kb-nav { position: fixed; z-index: 40; left: 0; top: 0; width: min(85vw, 320px); transform: translateX(-105%); visibility: hidden; transition: transform .18s ease-out, visibility 0s .18s; box-shadow: 0 0 24px var(--kb-backdrop); }
  /* Closed, the drawer's links are out of the tab order too. */
  .kb-drawer-toggle:checked ~ .kb-layout .kb-nav { transform: none; visibility: visible; transition: transform .18s ease-out; }
  .kb-drawer-toggle:checked ~ .kb-backdrop { display: block; position: fixed; inset: 0; z-index: 30; background: var(--kb-backdrop); }
  .kb-main { padding: 12px 10px 64px; }
  .kb-page { padding: 18px 16px; border-radius: 8px; }
  .kb-page-title { font-size: 24px; }
  .kb-article [id] { scroll-margin-top: 64px; }
}
`

const article = `
.kb-article { overflow-wrap: break-word; }
.kb-article > :first-child { margin-top: 0; }
.kb-article h1, .kb-article h2, .kb-article h3, .kb-article h4 { line-height: 1.3; margin: 1.4em 0 .5em; }
.kb-article h1 { font-size: 24px; }
.kb-article h2 { font-size: 20px; }
.kb-article h3 { font-size: 17px; }
.kb-article [id] { scroll-margin-top: 16px; }
.kb-heading-link::before { content: "#"; }
.kb-heading-link { margin-left: .4em; color: var(--kb-muted) !important; font-weight: 400; text-decoration: none !important; opacity: 0; }
:is(h1, h2, h3, h4, h5, h6):hover > .kb-heading-link, .kb-heading-link:focus { opacity: 1; }
@media (hover: none) { .kb-heading-link { opacity: .5; } }
.kb-article p, .kb-article ul, .kb-article ol, .kb-article blockquote, .kb-article table, .kb-article pre { margin: 0 0 1em; }
.kb-article a { color: var(--kb-link); text-decoration: none; }
.kb-article a:hover { text-decoration: underline; }
.kb-article blockquote { border-left: 3px solid var(--kb-border); padding: 0 0 0 14px; color: var(--kb-muted); }
.kb-article code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--kb-sunken); border-radius: 4px; padding: .1em .35em; }
.kb-article pre { background: var(--kb-sunken); border: 1px solid var(--kb-border); border-radius: 6px; padding: 12px 14px; overflow-x: auto; max-width: 100%; color: var(--kb-code-foreground); }
.kb-article pre code { background: none; padding: 0; font-size: 13px; line-height: 1.5; }
.kb-article table { border-collapse: collapse; display: block; max-width: 100%; width: max-content; overflow-x: auto; }
.kb-article th, .kb-article td { border: 1px solid var(--kb-border); padding: 6px 12px; }
.kb-article th { background: var(--kb-sunken); }
.kb-article img { max-width: 100%; height: auto; border-radius: 4px; }
.kb-article img[width] { height: auto; }
.kb-article hr { border: 0; border-top: 1px solid var(--kb-border); margin: 1.5em 0; }
.kb-article mark { border-radius: 3px; padding: 0 2px; color: inherit; background-color: ${palette.yellow.mark}; }
.kb-article [data-node="hintBlock"] { border-left: 4px solid; border-radius: 6px; padding: 12px 16px; margin: 0 0 1em; }
.kb-article [data-node="hintBlock"] > :last-child { margin-bottom: 0; }
.kb-article details { border: 1px solid var(--kb-border); border-radius: 6px; padding: 0 14px; margin: 0 0 1em; }
.kb-article details > summary { cursor: pointer; font-weight: 600; padding: 8px 0; }
.kb-article details[open] > summary { border-bottom: 1px solid var(--kb-border); margin-bottom: 10px; }
.kb-article [data-node="attachmentsGroup"] { display: flex; flex-direction: column; gap: 4px; list-style: none; border: 1px solid var(--kb-border); border-radius: 6px; padding: 8px; margin: 0 0 1em; background: var(--kb-sunken); }
.kb-article [data-node="attachmentsGroup"] > li { margin: 0; }
.kb-article [data-node="attachment"] { display: flex; align-items: center; gap: 8px; padding: 4px 8px; border-radius: 4px; color: var(--kb-text); }
.kb-article [data-node="attachment"]::before { content: ""; flex: 0 0 auto; width: 10px; height: 13px; border: 1.5px solid var(--kb-muted); border-radius: 2px 5px 2px 2px; }
.kb-article [data-node="attachment"]:hover { background: var(--kb-hover); text-decoration: none; }
.kb-article [data-node="drawio"], .kb-article iframe, .kb-article video { display: block; max-width: 100%; border: 1px solid var(--kb-border); border-radius: 6px; margin: 0 0 1em; background: var(--kb-sunken); }
.kb-article [data-node="drawio"]:not([width]) { width: 100%; }
.kb-article [data-node="drawio"] { height: 400px; }
.kb-article video, .kb-article [data-node="video"] { width: 640px; aspect-ratio: 16 / 9; height: auto; }
.kb-article [data-node="anchorLink"]:empty { display: inline; }
.kb-article :target { outline: 2px solid var(--kb-link); outline-offset: 2px; }
`

/** Code tokens (`kb-tok-*`, from `highlight.ts`) in the colours of the scheme. */
function codeRules(): string {
  const tokens = Object.keys(codePalette.light).filter((name) => name.startsWith('token-'))
  return (
    tokens
      .map((name) => `.kb-article pre .kb-tok-${name.slice('token-'.length)} { color: var(--kb-code-${name}); }`)
      .join('\n') +
    `\n.kb-tok-italic { font-style: italic; } .kb-tok-bold { font-weight: 700; } .kb-tok-underline { text-decoration: underline; }\n`
  )
}

/** Per-token rules: hint block background and accent, highlight background; in the dark scheme mixed into the surface. */
function colorRules(): string {
  const light = colorTokens.map((token) => {
    const colors = palette[token]
    return (
      `.kb-article [data-node="hintBlock"][data-color="${token}"] { background-color: ${colors.hintBackground}; border-left-color: ${colors.hintBorder}; }\n` +
      `.kb-article mark[data-color="${token}"] { background-color: ${colors.mark}; }`
    )
  })
  const dark = colorTokens.map((token) => {
    const colors = palette[token]
    return (
      `.kb-article [data-node="hintBlock"][data-color="${token}"] { background-color: color-mix(in srgb, ${colors.hintBorder} 16%, var(--kb-surface)); }\n` +
      `.kb-article mark[data-color="${token}"] { background-color: color-mix(in srgb, ${colors.hintBorder} 45%, var(--kb-surface)); }`
    )
  })
  const plainMark = `.kb-article mark { background-color: color-mix(in srgb, ${palette.yellow.hintBorder} 45%, var(--kb-surface)); }`
  return `${light.join('\n')}\n@media (prefers-color-scheme: dark) {\n${plainMark}\n${dark.join('\n')}\n}`
}

/** The whole stylesheet (scheme variables, page shell, drawer, article view, code, the 11 colours). */
export const stylesheet: string =
  schemeVariables() + shell + wide + drawer + article + codeRules() + colorRules() + '\n'
