/**
 * How many bodies a push's scan reads, announced before it reads them: a
 * process that bounds its heap's growth (`cli/heap.ts`) leaves a small
 * push more room than a large one. Only a push announces: a pull's scan of
 * the folder says nothing of how much it will download.
 */

let listener: ((bodies: number) => void) | undefined

/** Has `heard` called with the number of bodies of each push's scan, before they are read (undefined: none). */
export function onPushSize(heard: ((bodies: number) => void) | undefined): void {
  listener = heard
}

/** Announces that a push's scan reads `bodies` bodies. */
export function announcePushSize(bodies: number): void {
  listener?.(bodies)
}
