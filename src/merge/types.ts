/**
 * The shapes of the round trip's merge (`design.md`, "The round trip"): a
 * web edit pulled back patches the author's file block by block instead of
 * regenerating it, and a local edit in other blocks is kept. The merge is
 * pure: texts and trees in, the merged text (or a conflict) out; the engine
 * (`sync/pull`) gives it the conversions it needs as functions.
 */
import type {Root} from 'mdast'

/** What the merge is given for one document. */
export interface MergeInput {
  /** The file's text at the last sync (the base store's copy, checked against the state's `sourceHash`). */
  base: string
  /** The file's text now (equal to `base` when nobody edited it locally). */
  local: string
  /**
   * The dialect tree `base` renders to, as push renders it (links and files
   * resolved), its nodes' positions in the lines and columns of `base` (the
   * whole file, front matter included). A node without a position is not
   * the file's own text.
   */
  baseTree: Root
  /** The platform's body as a dialect tree (`parseKb`), with the title heading taken off as pull takes it. */
  remoteTree: Root
  /**
   * Whether lines `startLine` to `endLine` (1-based, inclusive) of `base` are
   * the author's own text as the conversion read it: false where the
   * conversion read other text (an include expanded, a template value
   * filled in, front matter), which a patch must not rewrite.
   */
  ownLines(startLine: number, endLine: number): boolean
  /**
   * Writes dialect blocks (a root holding some of `remoteTree`'s children)
   * in the author's Markdown, as pull writes a new file's body (links
   * relative, files downloaded).
   */
  toAuthor(blocks: Root): string
  /**
   * The canonical dialect body a whole file text renders to, as push
   * renders it; undefined when it does not render (an error). The merge
   * proves with it that the patched file gives the platform's body.
   */
  render(text: string): string | undefined
}

/** One conflict of a merge: where the local file and the platform changed the same block. */
export interface MergeConflict {
  /** 1-based line of the block in the local file. */
  line: number
  /** What to say about it (which block, what both sides did). */
  message: string
}

/** What the merge gives back. */
export type MergeResult =
  | {
      /** Both sides' changes were applied (or only the platform's, `local` being `base`). */
      status: 'merged'
      /** The file to write. */
      text: string
      /** How many blocks the platform changed (0: the platform's body is what `base` renders to). */
      remoteBlocks: number
    }
  | {
      /** The file and the platform changed the same block: the local file is not touched. */
      status: 'conflict'
      /** `base` patched with the platform's blocks, in the author's syntax: what goes beside the file. */
      theirs: string
      conflicts: MergeConflict[]
    }
  | {
      /**
       * A block the platform changed comes from text a patch cannot write back
       * (an include, a template value, a generated block), or the patched file
       * would not render to the platform's body: the caller treats it as a
       * conflict and says why; never a silent rewrite.
       */
      status: 'unmergeable'
      reason: string
      /** 1-based line of `base` the reason is about, when there is one. */
      line?: number
    }
