/**
 * The configuration of kbsync: `kbsync.config.json` or `.kbsyncrc.json`
 * (found walking up from the working directory), `KBSYNC_*` environment
 * variables and command-line flags. See `docs/cli.md`.
 */
export {loadConfig, type KbsyncConfig, type LoadConfigOptions} from './config/load.js'
export {ConfigError, type ConfigSource} from './config/errors.js'
export {configFileNames, findConfigFile} from './config/find.js'
export {keyDefinitions, forbiddenFileKeys, type KeyDefinition} from './config/keys.js'
export {redact, redactConfig} from './config/redact.js'
export {articleUrlOf} from './config/links.js'
