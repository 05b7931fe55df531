/** The dialect's 11 colours to the four of the comment subset. */
import type {ColorToken} from '../../../plugins/types.js'

/** A colour of `<mark data-color>` in comments. */
export type CommentColor = 'red' | 'yellow' | 'green' | 'blue'

/**
 * Nearest by hue: pink and orange are closer to red, orangeYellow to yellow,
 * greenBlue (teal) to green, violet and purple to blue; gray has no hue and
 * takes yellow, the plain highlighter colour.
 */
export const commentColors: Record<ColorToken, CommentColor> = {
  red: 'red',
  pink: 'red',
  orange: 'red',
  orangeYellow: 'yellow',
  yellow: 'yellow',
  green: 'green',
  greenBlue: 'green',
  blue: 'blue',
  violet: 'blue',
  purple: 'blue',
  gray: 'yellow'
}
