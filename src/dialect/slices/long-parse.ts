/**
 * A parse of a very long table or list, announced before it runs. Such a
 * parse and the conversion around it run in one synchronous call (a pull
 * of a list of 50,000 items: seconds, a minute on a loaded machine), so a
 * process that bounds its heap's growth on a timer (`cli/heap.ts`) never
 * gets to: V8 let the heap grow to four times what was alive, and the pull
 * peaked at 420-440 MB for 100 MB alive. The process listens here instead
 * and bounds the growth before the parse.
 */

/** Middle lines of long runs from which a parse is announced: a long changelog's runs are far shorter. */
export const announcedLines = 8192

let listener: (() => void) | undefined

/** Has `heard` called before each parse of runs of at least `announcedLines` middle lines (undefined: none). */
export function onLongParse(heard: (() => void) | undefined): void {
  listener = heard
}

/** Announces a parse of `lines` middle lines of long runs, if they are that many. */
export function announceLongParse(lines: number): void {
  if (lines >= announcedLines) listener?.()
}
