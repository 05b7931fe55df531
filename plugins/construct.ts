/**
 * What a construct of the dialect is: its entries of the pairing table (how
 * its tags become its node when a tree is built) and its to-markdown
 * extension (how the node is written). A construct plugin registers one
 * construct; the preset registers them all. The pairing machinery
 * (`transform/`) knows no construct: it runs the table the registered
 * constructs contribute.
 */
import type {Html, PhrasingContent, RootContent} from 'mdast'
import type {Options as ToMarkdownExtension} from 'mdast-util-to-markdown'
import type {KbTag} from './syntax/tag.js'
import type {Attachment} from './types.js'
import type {KbProblem} from './transform/problems.js'

/** Why a construct's tags stay as written (reported unless `reason` is empty). */
export interface Rejection {
  reject: string
  ruleId: string
}

/** A rejection: the tags and content stay as written, reported with `reason` (none when empty). */
export function reject(reason: string, ruleId: string): Rejection {
  return {reject: reason, ruleId}
}

/** Whether a builder's answer is a rejection. */
export function isRejection(value: object): value is Rejection {
  return 'reject' in value
}

/** Which tags an entry pairs: a tag name, and for the names constructs share (`div`, `a`, `iframe`) a `data-node` value. */
export interface EntryTag {
  tag: string
  node?: string
}

/** What a flow entry is told when its open tag meets its close tag. */
export interface FlowClose {
  tag: KbTag
  open: Html
  /** The output list: the frame's content is `output[from..]` (read it before `take`). */
  output: readonly RootContent[]
  from: number
  /** Whether the content is only paragraphs and lines of tags. */
  plain: boolean
  /** The tag of the frame around this one, and whether this one opened first in it. */
  parent: KbTag | undefined
  first: boolean
  problems: KbProblem[]
  /** Take the content out of the output, settled (the node built takes its place; taken after `close` if not before). */
  take(): RootContent[]
  /** Pair inline tags among phrasing children, with the processor's table. */
  pairPhrasing(children: PhrasingContent[]): PhrasingContent[]
}

/** A construct's entry for block tags: the node built when the tags close, or why they stay. */
export interface FlowEntry extends EntryTag {
  close(context: FlowClose): RootContent | Rejection
  /**
   * What a node this entry built goes back to when the frame around it is
   * left unclosed, if it cannot stand outside it (a summary outside its
   * details). Such a node counts as plain content (see `FlowClose.plain`).
   */
  undo?(node: RootContent): RootContent[]
}

/** What a phrasing entry builds: phrasing content, or an attachment (phrasing until its group takes it). */
export type PhrasingNode = PhrasingContent | Attachment

/** What a phrasing entry is told when its open tag meets its close tag. */
export interface PhrasingClose {
  tag: KbTag
  open: Html
  /** The output list: the frame's content is `output[from..]` (read it before `take`). */
  output: readonly PhrasingContent[]
  from: number
  problems: KbProblem[]
  /** Take the content out of the output (the node built takes its place; taken after `close` if not before). */
  take(): PhrasingContent[]
}

/** A construct's entry for inline tags: a leaf made of one tag, a container made of a pair, or both. */
export interface PhrasingEntry extends EntryTag {
  /** The node one opening tag makes on its own (a sized image, a self-closing anchor), if it does. */
  leaf?(tag: KbTag, html: Html, problems: KbProblem[]): PhrasingContent | undefined
  /** The node a pair makes (a node given no position is given the pair's). */
  close?(context: PhrasingClose): PhrasingNode | Rejection
  /** The node an opening tag left unclosed stands for, if any (else it is reported as unclosed). */
  unclosed?(tag: KbTag, html: Html, problems: KbProblem[]): PhrasingContent | undefined
}

/** One construct of the dialect: how it is paired when parsing and how it is written. */
export interface KbConstruct {
  /** The node type(s) it builds, for messages and documentation. */
  name: string
  flow?: readonly FlowEntry[]
  phrasing?: readonly PhrasingEntry[]
  toMarkdown: ToMarkdownExtension
}
