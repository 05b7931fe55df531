/**
 * The error of an invalid configuration. The CLI maps it to exit code 2
 * (invalid input or usage: nothing was written).
 */

/** Where a configuration value came from: `file` is the repository config (data), `user` the user-level config. */
export type ConfigSource = 'flag' | 'env' | 'file' | 'user' | 'default'

/** An invalid configuration value: names the key and where it was set, never the value of a secret. */
export class ConfigError extends Error {
  override name = 'ConfigError'
  /** The offending key as the user wrote it (`concurrency`, `KBSYNC_CONCURRENCY`, `--concurrency`). */
  readonly key: string
  /** The config file involved, when the problem is in one. */
  readonly file?: string

  constructor(message: string, key: string, file?: string) {
    super(file ? `${file}: ${message}` : message)
    this.key = key
    if (file !== undefined) this.file = file
  }
}
