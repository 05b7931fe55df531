/** Text made safe for a cell of a Markdown table (step summaries). */
import {oneLine} from '../../trust/index.js'

/**
 * Escapes text (a title, a path, a platform's message) for a Markdown table
 * cell of a step summary, so it shows as the text it is and injects nothing:
 * on one line (control characters shown as `\n`, `\x1b`); a backslash before
 * every character that starts inline syntax (CommonMark allows one before any
 * ASCII punctuation), so no pipe ends the cell, no `<` opens HTML, no `&`
 * starts a character reference, no `[`, `*`, `` ` ``, `~` or `$` formats,
 * links or typesets; and the starts of GitHub's autolinks broken (`:\/`,
 * `www\.`, `\@`, `mailto\:`), so no address in a title becomes a link.
 */
export function cell(text: string): string {
  return oneLine(text)
    .replace(/[\\`*_[\]<>|~&!@$]/g, '\\$&')
    .replace(/:\//g, ':\\/')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/\b(mailto|xmpp):/gi, '$1\\:')
}
