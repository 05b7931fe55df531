/**
 * The folder side of kbsync: scan a folder into the desired tree, and the
 * sync state file. Knows nothing of HTTP.
 */
export {countSeverities, type Diagnostic} from './diagnostic.js'
export type {
  AssetRef,
  BodyRefs,
  LinkRef,
  LocalArticle,
  LocalAsset,
  LocalNode,
  LocalPermissions,
  LocalTopic,
  ScanResult
} from './types.js'
export {scanFolder, type ScanOptions} from './scan.js'
export type {KeepRender} from './scan-keep-render.js'
export {documentScanner, type DocumentScanner, type ScannedDocument} from './overlay-scan.js'
export {assetHashesByPath} from './scan-bodies.js'
export {keptTreeNodesMax, TreeBudget, treeNodes} from './tree-weight.js'
export {repositoryRoot} from './repository.js'
export {editSummary} from './navigation/edit-summary.js'
export {chapterFolder} from './navigation/chapter-folders.js'
export {keepFileName} from './kept-folder.js'
export {summaryFileName} from './navigation/mdbook-summary.js'
export {canEditMkdocsNav, editMkdocsNav} from './navigation/edit-mkdocs-nav.js'
export {parseMkdocs} from './navigation/mkdocs.js'
export type {Anchor, NewEntry, OutlineEdit} from './navigation/edit-lines.js'
export {removeStaleTemps} from './stale-temp.js'
export {isInside} from './walk.js'
export {hashFile, sha256, sourceHashOf} from './hash.js'
export {hasBase, listBases, maxBaseBytes, pruneBases, readBase, storeBase} from './base-store.js'
export {permissionsKey} from './permissions.js'
export {mapLimit} from './map-limit.js'
export {isLocalUrl, resolveLocal, type LinkOptions, type LocalRef, type Resolved} from './references.js'
export type {LocaleChoice} from './navigation/locales.js'
export {bodyTree, dropPositions, positionedBodyTree, toGfmText, toKbText, toKbTree} from './markdown.js'
export {
  bodyKeyOf,
  forgetHandedOver,
  handedTreesMax,
  handOverFacts,
  parseBodyFacts,
  reserveHandedTree,
  scanParses
} from './body-facts.js'
export {BodyCache, bodyCachePath, type BodyFacts} from './body-cache.js'
export {FrontMatterCache, frontMatterCacheFile, handOverFrontMatter} from './front-matter-cache.js'
export {factsOfRecord} from './front-matter.js'
export {frontMatterFence} from './front-matter-fence.js'
export {BodyMovedError, hasBody, ownStrings, readBodyAgain, releaseBody} from './body-release.js'
export {writeKbId} from './write-id.js'
export {
  checkWritesInside,
  ensureDirInside,
  existsInside,
  openAppendInside,
  pathToWriteInside,
  removeEmptyFolderInside,
  removeInside,
  renameInside,
  WriteOutsideError,
  writeFileInside,
  type RefusedLink
} from './inside.js'
export {decodeText} from './text.js'
export {
  emptyState,
  loadState,
  statePath,
  stateFiles,
  stateSchemaVersion,
  StateStore,
  type AssetEntry,
  type LoadedState,
  type StateEntry,
  type SyncState,
  type TargetRecord,
  type TargetState
} from './state.js'
export {jsonChunks, writeJsonInside, writeStreamedInside} from './state-writer.js'
export {
  embeddedTarget,
  isLoopbackUrl,
  originOf,
  remoteTarget,
  servedBy,
  targetKey,
  targetLabel,
  unnamedTarget,
  type StateTarget
} from './state-target.js'
export {asLocalWriteError, isMachineWriteError, LocalWriteError} from './write-failure.js'
