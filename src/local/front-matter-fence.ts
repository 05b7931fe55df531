/**
 * Where a front matter block may open: on a file's first line, or after
 * blank lines. Astro and Hugo read a block after blank lines as front
 * matter too (Biome's `getting-started.mdx` pages open so), and a reader of
 * such a page never sees its YAML.
 */

const opening = /^---[ \t]*\r?\n/
const blankLinesThenOpening = /^(?:[ \t]*\r?\n)+---[ \t]*\r?\n/

/**
 * The 0-based line of the `---` that may open the front matter of `text`:
 * its first line, or the first after blank lines; -1 when none does.
 */
export function frontMatterFence(text: string): number {
  if (opening.test(text)) return 0
  const blank = blankLinesThenOpening.exec(text)
  return blank ? blank[0].split('\n').length - 2 : -1
}
