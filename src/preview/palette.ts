/**
 * The colours of the dialect's 11 tokens as the article view shows them:
 * a hint block's background and border, a highlight's background. Plain
 * data, so the stylesheet and the tests read the same values.
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

/** Colours per token, as `#rrggbb`. */
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

/** `#rrggbb` as the `rgb(r, g, b)` string browsers report in computed styles. */
export function hexToRgb(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16)
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`
}
