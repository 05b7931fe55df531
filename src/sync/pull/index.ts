/**
 * Pull: bring a knowledge base (or one topic) into a folder, losslessly, and
 * bring web edits back later. Plans are pure functions of the remote tree,
 * the sync state and the folder scan; writing happens in `applyPull`.
 */
export {pull, planPullRun, type PullContext} from './pull.js'
export {applyPull} from './apply.js'
export {planPull, itemsToRead, type PullOp, type PullOpKind, type PullPlan} from './plan.js'
export {declaredPermissions} from '../shared/declared-permissions.js'
export {computeLayout, documentFile, type Layout} from '../shared/document-layout.js'
export {
  safeStem,
  assignNames,
  isPortableName,
  nameKey,
  truncateBytes,
  maxStemBytes,
  reservedNames,
  type NameRequest
} from '../shared/names.js'
export {
  localizeTree,
  restoreTree,
  relativeUrl,
  encodePath,
  fileUrls,
  type LocalizeContext,
  type Origin
} from '../shared/localize.js'
export {pullBody, protectTitleHeading, type PulledBody, type PulledForm} from '../shared/document-body.js'
export {assetsFolder, planAssets, type AssetPlan} from './assets.js'
export {documentText, permissionsText} from '../shared/document-files.js'
export {
  platformItemOf,
  itemPageUrl,
  linkForms,
  normalizeRemoteLinks,
  type ItemRef,
  type LinkForms,
  type PlatformUrls,
  type RewrittenUrl
} from '../shared/platform-links.js'
export {documentsAfterPull, linkWarnings, type DocumentAfterPull} from './link-targets.js'
export type {PullClient, PullEvent, PullOptions, PullResult} from './types.js'
