/**
 * Every colour of the preview, in one place: the dialect's 11 colour tokens
 * as the article view shows them (a hint block's background and border, a
 * highlight's background), the page shell's colours and the code tokens',
 * each in a light and a dark scheme (the page follows the system setting).
 * Plain data, so the stylesheet and the tests read the same values.
 */
import {colorTokens, type ColorToken} from '../../plugins/types.js'

/** How one colour token is drawn. */
export interface TokenColors {
  /** Background of a hint block. */
  hintBackground: string
  /** Left border (the accent) of a hint block. */
  hintBorder: string
  /** Background of a highlight (`<mark>`). */
  mark: string
}

/** Colours per token, as `#rrggbb` (the light scheme; the dark one mixes them into its surface). */
export const palette: Readonly<Record<ColorToken, TokenColors>> = {
  red: {hintBackground: '#fdecec', hintBorder: '#e5484d', mark: '#ffc9c9'},
  pink: {hintBackground: '#fdeef6', hintBorder: '#e93d82', mark: '#fcc2d7'},
  orange: {hintBackground: '#fff1e6', hintBorder: '#f76b15', mark: '#ffd8a8'},
  orangeYellow: {hintBackground: '#fff6e0', hintBorder: '#f5a524', mark: '#ffe3a3'},
  yellow: {hintBackground: '#fffbe0', hintBorder: '#d9b800', mark: '#fff3a3'},
  green: {hintBackground: '#eaf7ee', hintBorder: '#30a46c', mark: '#c3f0cf'},
  greenBlue: {hintBackground: '#e6f7f5', hintBorder: '#12a594', mark: '#b8efe6'},
  blue: {hintBackground: '#e8f1fd', hintBorder: '#3e83f8', mark: '#c5dcff'},
  violet: {hintBackground: '#f0edfd', hintBorder: '#6e56cf', mark: '#d9d1ff'},
  purple: {hintBackground: '#f7ecfb', hintBorder: '#ab4aba', mark: '#efc8f7'},
  gray: {hintBackground: '#f1f3f5', hintBorder: '#8b949e', mark: '#dee2e6'}
}

export {colorTokens, type ColorToken}

/** The page shell's colours, each a CSS variable `--kb-<name>`. */
export interface ShellColors {
  /** Behind everything. */
  background: string
  /** The article card, the navigation, boxes. */
  surface: string
  /** A box inside the surface (code, table heads, source excerpts). */
  sunken: string
  text: string
  muted: string
  border: string
  /** A link, the current page's mark. */
  link: string
  hover: string
  currentBackground: string
  warningBackground: string
  warningBorder: string
  warningText: string
  errorBackground: string
  errorBorder: string
  errorText: string
  /** Shadow of the open drawer, the backdrop behind it. */
  backdrop: string
}

/** The shell in both schemes. */
export const shellPalette: Readonly<Record<'light' | 'dark', ShellColors>> = {
  light: {
    background: '#f6f7f9',
    surface: '#ffffff',
    sunken: '#f6f8fa',
    text: '#1f2328',
    muted: '#656d76',
    border: '#e3e6ea',
    link: '#0b57d0',
    hover: '#f0f2f5',
    currentBackground: '#e8f1fd',
    warningBackground: '#fff8e6',
    warningBorder: '#f0c36d',
    warningText: '#9a6700',
    errorBackground: '#fff1f1',
    errorBorder: '#f1a7ab',
    errorText: '#cf222e',
    backdrop: 'rgba(15, 20, 25, .35)'
  },
  dark: {
    background: '#0d1117',
    surface: '#161b22',
    sunken: '#1f2630',
    text: '#e6edf3',
    muted: '#9198a1',
    border: '#30363d',
    link: '#6cb6ff',
    hover: '#21262d',
    currentBackground: '#1c2d44',
    warningBackground: '#2b2111',
    warningBorder: '#7a5a1c',
    warningText: '#e3b341',
    errorBackground: '#2d1517',
    errorBorder: '#8e3a3f',
    errorText: '#ff7b72',
    backdrop: 'rgba(0, 0, 0, .55)'
  }
}

/** The code tokens shiki's CSS-variables theme tells apart (`--kb-code-token-<name>`), in both schemes. */
export const codePalette: Readonly<Record<'light' | 'dark', Record<string, string>>> = {
  light: {
    foreground: '#1f2328',
    'token-constant': '#0550ae',
    'token-string': '#0a3069',
    'token-comment': '#6e7781',
    'token-keyword': '#cf222e',
    'token-parameter': '#953800',
    'token-function': '#8250df',
    'token-string-expression': '#116329',
    'token-punctuation': '#57606a',
    'token-link': '#0550ae'
  },
  dark: {
    foreground: '#e6edf3',
    'token-constant': '#79c0ff',
    'token-string': '#a5d6ff',
    'token-comment': '#8b949e',
    'token-keyword': '#ff7b72',
    'token-parameter': '#ffa657',
    'token-function': '#d2a8ff',
    'token-string-expression': '#7ee787',
    'token-punctuation': '#9198a1',
    'token-link': '#79c0ff'
  }
}

/** `shellColors` as CSS declarations of `--kb-*` (shell) and `--kb-code-*` (code) variables. */
function variables(scheme: 'light' | 'dark'): string {
  const shell = Object.entries(shellPalette[scheme]).map(
    ([name, value]) => `--kb-${name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}: ${value};`
  )
  const code = Object.entries(codePalette[scheme]).map(([name, value]) => `--kb-code-${name}: ${value};`)
  return [...shell, ...code].join(' ')
}

/**
 * The variables of both schemes: light by default, dark when the system asks
 * for it (`prefers-color-scheme`); `color-scheme` lets form controls and
 * scroll bars follow.
 */
export function schemeVariables(): string {
  return (
    `:root { color-scheme: light dark; ${variables('light')} }\n` +
    `@media (prefers-color-scheme: dark) { :root { ${variables('dark')} } }\n`
  )
}

/** `#rrggbb` as the `rgb(r, g, b)` string browsers report in computed styles. */
export function hexToRgb(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16)
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`
}
