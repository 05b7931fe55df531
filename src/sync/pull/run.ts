/**
 * What the steps of `applyPull` share: the plan and its context, the
 * result they add to, the state store, and the state entries before and
 * after the pull, by id.
 */
import type {BodyFacts} from './body-task.js'
import type {RenderPrediction} from '../shared/render-prediction.js'
import type {StateEntry, StateStore} from '../../local/index.js'
import type {AssetPlan} from './assets.js'
import type {PullOp, PullPlan} from './plan.js'
import type {PullContext} from './pull.js'
import type {PullEvent, PullOptions, PullResult} from './types.js'

/** A state entry with the key it is (or will be) filed under. */
export interface KeyedEntry {
  key: string
  entry: StateEntry
}

/** The state entries of the run, by id. */
export interface StateBook {
  /** Before the pull (a deleted item leaves it). */
  before: Map<string, KeyedEntry>
  /** After the pull, for the items this pull wrote or adopted. */
  after: Map<string, KeyedEntry>
  /** Where each item's entry is keyed now (after the moves), for the journal. */
  keyNow: Map<string, string>
}

/** The files the bodies use, once downloaded. */
export interface PulledFiles {
  /** The planned local copy of each file URL. */
  assets: Map<string, AssetPlan>
  /** The local copy a body may name, by URL. */
  local: Map<string, string>
  /** URLs downloaded by this pull (not found on disk). */
  downloadedNow: Set<string>
  /**
   * Files the state already holds (their content: `sha256`) with no copy at
   * their planned place, by URL: a document whose file holds that content
   * names it there, else the copy is fetched before its body is converted.
   */
  deferred: Map<string, {asset: AssetPlan; sha256: string}>
}

/** One application of a pull plan. */
export interface ApplyRun {
  dir: string
  plan: PullPlan
  context: PullContext
  options: PullOptions
  result: PullResult
  store: StateStore
  book: StateBook
  /** The parsed remote body of each document written, by id. */
  facts: Map<string, BodyFacts>
  files: PulledFiles
  emit(event: PullEvent): void
  /** Records that `op` failed with `error`. */
  fail(op: PullOp, error: unknown): void
  /** The canonical hash of each document's body as pulled, by id (a body the platform did not store canonically is no loss). */
  canonical: Map<string, string>
  /**
   * Each document merged into its file, by id: the text its state names as
   * synced (the file patched with the platform's changes alone: a file that
   * also holds local edits still has them to push) and the hash of the body
   * that text was proved to render to, as push renders it.
   */
  mergedBases: Map<string, {text: string; renderedHash: string; written: string}>
  /** What the check's render of each written body will be, by its scan key (`bodyKeyOf`), as its proof found (`render-prediction.ts`). */
  predictions: Map<string, RenderPrediction>
  /** Whether the state changed on disk (it is then saved whole at the end). */
  recorded: boolean
}
