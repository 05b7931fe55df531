/**
 * The round trip's merge: a pure module (texts and trees in, the merged
 * text or a conflict out), as `git merge-file` is for lines.
 */
export type {MergeConflict, MergeInput, MergeResult} from './types.js'
export {mergeDocument} from './merge-document.js'
export {threeWay, type ThreeWayResult} from './three-way.js'
