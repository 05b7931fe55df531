/**
 * Syntax highlighting of the preview's code blocks with shiki, on the
 * server, while a page renders. One theme whose colours are CSS variables
 * (`palette.ts` gives them a light and a dark value), so each block is
 * tokenised once for both themes, and tokens are told apart by class
 * (`kb-tok-keyword`): the sanitiser of `kbToHtml` keeps no `style`.
 * A language's grammar is loaded the first time a page uses it; a language
 * shiki does not know stays plain. Blocks are cached by language and text,
 * so a save re-renders a page without tokenising its unchanged blocks again.
 */
import type {Element, ElementContent} from 'hast'
import {createRequire} from 'node:module'
import {
  createCssVariablesTheme,
  createHighlighterCoreSync,
  type HighlighterCore,
  type LanguageRegistration,
  type ThemedToken
} from 'shiki/core'
import {createJavaScriptRegexEngine} from 'shiki/engine/javascript'
import {bundledLanguagesInfo} from 'shiki/langs'
import type {CodeHighlighter} from '../dialect/to-html/index.js'

/** The prefix of the theme's CSS variables; `palette.ts` defines them. */
export const codeVariablePrefix = '--kb-code-'

const themeName = 'kb'
/** Characters of code kept highlighted (its tokens take some ten times that); the block used longest ago goes first. */
const cacheChars = 4_000_000

// Language modules are ES modules without top-level await: `require` loads them synchronously, so a page renders in one pass.
const requireLanguage = createRequire(import.meta.url)

/** Every name shiki knows a language by (ids and aliases), lower case, to its id. */
const languageIds = new Map<string, string>()
for (const info of bundledLanguagesInfo)
  for (const name of [info.id, ...(info.aliases ?? [])]) languageIds.set(name.toLowerCase(), info.id)

let highlighter: HighlighterCore | undefined
const failed = new Set<string>()
const cache = new Map<string, ElementContent[]>()
let cachedChars = 0

function core(): HighlighterCore {
  highlighter ??= createHighlighterCoreSync({
    themes: [createCssVariablesTheme({name: themeName, variablePrefix: codeVariablePrefix, fontStyle: true})],
    langs: [],
    // Forgiving: a grammar pattern JavaScript's RegExp cannot say is skipped, not fatal to the block.
    engine: createJavaScriptRegexEngine({forgiving: true})
  })
  return highlighter
}

/**
 * The shiki id of the language an info string names (`ts`, `rust,ignore`,
 * `{.python}` and `Shell` included), or undefined when shiki knows none.
 */
export function languageOf(lang: string | undefined): string | undefined {
  const name = lang
    ?.toLowerCase()
    .replace(/^\{?\.?/, '')
    .split(/[,{}\s]/)[0]
  return name ? languageIds.get(name) : undefined
}

/** Loads the grammar of `id` (and those it embeds) once; false when it cannot be loaded. */
function ensureLanguage(id: string): boolean {
  if (failed.has(id)) return false
  const shiki = core()
  if (shiki.getLoadedLanguages().includes(id)) return true
  try {
    const grammar = (requireLanguage(`@shikijs/langs/${id}`) as {default: LanguageRegistration[]}).default
    shiki.loadLanguageSync(grammar)
    return true
  } catch {
    failed.add(id)
    return false
  }
}

/** `var(--kb-code-token-keyword)` -> `kb-tok-keyword`; the foreground is plain text (undefined). */
function tokenClass(token: ThemedToken): string[] {
  const name = token.color?.match(/^var\(--kb-code-token-([\w-]+)\)$/)?.[1]
  const classes = name ? [`kb-tok-${name}`] : []
  const style = token.fontStyle ?? 0
  if (style & 1) classes.push('kb-tok-italic')
  if (style & 2) classes.push('kb-tok-bold')
  if (style & 4) classes.push('kb-tok-underline')
  return classes
}

/** One line of tokens as spans, runs of plain text as text. */
function lineContent(tokens: ThemedToken[]): ElementContent[] {
  return tokens.map((token) => {
    const className = tokenClass(token)
    if (className.length === 0) return {type: 'text', value: token.content}
    const span: Element = {
      type: 'element',
      tagName: 'span',
      properties: {className},
      children: [{type: 'text', value: token.content}]
    }
    return span
  })
}

/** The highlighted content of a block, uncached. */
function tokenise(code: string, id: string): ElementContent[] {
  // Compiling a grammar's patterns counts against the time limit of the line that needs them: shiki's default (500 ms)
  // cut first lines short on a busy machine, leaving the rest of the block in a wrong state. Very long lines stay plain.
  const lines = core().codeToTokens(code, {
    lang: id,
    theme: themeName,
    tokenizeTimeLimit: 10_000,
    tokenizeMaxLineLength: 5_000
  }).tokens
  const out: ElementContent[] = []
  lines.forEach((tokens, index) => {
    if (index > 0) out.push({type: 'text', value: '\n'})
    out.push(...lineContent(tokens))
  })
  return out
}

/**
 * Highlights `code` written in `lang`: the children of its `<code>`, or
 * undefined (left plain) when the language is unknown or fails to load.
 * The nodes are the cache's own, shared by every page showing the block:
 * rendering reads them (the sanitiser's pass over them changes nothing), no
 * caller may change them.
 */
export const highlightCode: CodeHighlighter = (code, lang) => {
  const id = languageOf(lang)
  if (!id || !ensureLanguage(id)) return undefined
  const key = `${id}\0${code}`
  let content = cache.get(key)
  if (content) cache.delete(key)
  else {
    content = tokenise(code, id)
    cachedChars += key.length
  }
  cache.set(key, content)
  for (const oldest of cache.keys()) {
    if (cachedChars <= cacheChars || oldest === key) break
    cache.delete(oldest)
    cachedChars -= oldest.length
  }
  return content
}
