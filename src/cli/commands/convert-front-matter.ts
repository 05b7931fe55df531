/**
 * Front matter in `kbsync convert`: the YAML block between `---` lines at
 * the top of a file is no part of the body, as when `push` reads the file.
 * The platform has no front matter (its `title` is the article's name, set
 * by `push` beside the body), so it is left out of a body written in the
 * dialect or as HTML, with one note saying so, and so is a `# Title` line
 * under it naming that title, as `push` leaves it out (the platform shows
 * the name above the body); written as GFM (a file again) both are kept,
 * the block unchanged above the body.
 */
import {VFileMessage} from 'vfile-message'
import type {Diagnostic} from '../../local/diagnostic.js'
import {bodyOf, isTitleLine, readDocumentHead} from '../../local/body.js'
import {frontMatterFence} from '../../local/front-matter-fence.js'

/** The rule id of the note that front matter was left out of the body. */
export const frontMatterRule = 'kb-front-matter'

/** A text split into its front matter block and its body. */
export interface SplitText {
  /** The block, delimiter lines included, each line ending; '' when there is none. */
  block: string
  /** The body, the block's lines left blank, so every message keeps the line of the file. */
  body: string
  /** The body without its `# Title` line when that is the block's title, as `push` sends it. */
  untitled: string
  title?: string
  /** Problems of reading the block (unclosed, invalid YAML), as `push` reports them. */
  problems: Diagnostic[]
}

/**
 * Split `text` (the file `name`) into front matter and body, as `push`
 * reads a file (`readDocumentHead`). From GFM a block that is not closed is
 * an error, as `push` says; a dialect body has no front matter, so there
 * only a closed block is one (else a `---` line opening a body is a
 * thematic break).
 */
export function splitFrontMatter(text: string, name: string, fromKb: boolean): SplitText {
  const none: SplitText = {block: '', body: text, untitled: text, problems: []}
  if (frontMatterFence(text) === -1) return none
  const problems: Diagnostic[] = []
  const head = readDocumentHead(text, name, problems)
  if (!head.frontMatter.present) return fromKb ? none : {...none, problems}
  const block = text.split('\n').slice(0, head.frontMatter.lineCount).join('\n') + '\n'
  const {title} = head.frontMatter
  const titleLine = title !== undefined && head.heading !== undefined && isTitleLine(head.heading, title)
  return {
    block,
    body: bodyOf(head, false).body,
    untitled: bodyOf(head, titleLine).body,
    ...(title ? {title} : {}),
    problems
  }
}

/** The note that the front matter block was left out of the body, naming where its title goes. */
export function frontMatterNote(split: SplitText): VFileMessage {
  const title = split.title
    ? `; its title "${split.title}" is the article's name when pushed${split.untitled === split.body ? '' : ', and the `# ' + split.title + '` line under it too'}`
    : ''
  const reason = `The front matter is not part of the body${title}`
  return new VFileMessage(reason, {place: {line: 1, column: 1}, ruleId: frontMatterRule, source: 'kbsync'})
}
