/**
 * Pull's side of the round trip: a web edit merged into the author's file
 * (`pull-merge.ts`), the merge's input built as push reads the file
 * (`merge-input.ts`), front matter keys patched in place.
 */
export {mergeSettingOf, pullByMerge, type MergeRequest} from './pull-merge.js'
export type {MergeSetting} from './merge-input.js'
