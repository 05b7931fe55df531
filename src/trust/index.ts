/**
 * The trust rules of kbsync, one room with one door: what comes from the
 * repository is data. Callers import these rules from here.
 */
export {
  lookInside,
  readInside,
  readInsideSync,
  readTextInside,
  readTextInsideSync,
  utf8Text,
  ReadRefusedError,
  type FoundFile,
  type ReadLimits,
  type ReadRefusal
} from './read.js'
export {
  addressPolicy,
  addressRange,
  hostRange,
  privateRanges,
  type AddressPolicy,
  type AddressRange
} from './network-address.js'
export {
  AddressRefusedError,
  addressRefusalOf,
  guardedConnector,
  guardedLookup,
  type GuardedConnectorOptions
} from './guarded-connect.js'
export {
  allowOriginHint,
  credentialOrigins,
  mayReceiveCredentials,
  originOf,
  parseOrigin,
  platformOrigins
} from './origins.js'
export {
  credentialUrlKeys,
  repositoryBoundary,
  repositoryHolding,
  staysInside,
  userConfigPlace,
  userOnlyKeys,
  type UserConfigPlace
} from './config-files.js'
export {forgetUserSecret, isSealed, seal, sealParts, userCacheDir, userSecret, type UserSecret} from './user-secret.js'
export {isLoopbackHttp, sealOwnerRecord, untrustedOwnerRecord, type OwnerRecord} from './owner-record.js'
export {confineState, entriesOutside, type ScopeTree} from './state-scope.js'
export {maxIgnoreFileBytes, PublishSource, type PublishRefusal} from './publishable.js'
export {isScriptUrl, liveUrl, urlScheme} from './url-scheme.js'
export {
  escapeControls,
  jsonText,
  neutraliseCommand,
  oneLine,
  terminalText,
  type EscapeControlsOptions,
  type TerminalTextOptions
} from './output-text.js'
export {kbsyncFileMaxBytes, readCacheFile, readKbsyncFile} from './kbsync-files.js'
export {isSvg, maxSvgBytes, sanitiseSvg, svgUploadBytes, SvgRefused} from './svg.js'
export {maxYamlAliases, maxYamlFlowNesting, maxYamlLength, readYaml, type YamlProblem, type YamlRead} from './yaml.js'
export {
  delimiterWork,
  maxBodyLength,
  maxDelimiterWork,
  maxContainerIndent,
  maxOutlineDepth,
  overBudget,
  type BudgetExcess
} from './parse-budget.js'
export {trimBlanksEnd, trimLineEnds} from './linear-text.js'
export {CallValue, isPlainObject, literalValue, Opaque, readScriptExport, type ScriptRead} from './js-literal.js'
export {maxTomlLength, readTomlKeys} from './toml-keys.js'
export {maxScriptLength, maxScriptNesting, overScriptBudget} from './script-budget.js'
export {openedFolderPath} from './real-path.js'
export {realBoundary} from './real-boundary.js'
