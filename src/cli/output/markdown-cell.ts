/** Text made safe for a cell of a Markdown table (step summaries). */

/** Escapes text for a Markdown table cell: pipes, line breaks and the characters that would format it. */
export function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .replace(/([`*_<>[\]])/g, '\\$1')
}
