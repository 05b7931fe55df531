/**
 * The package version, read once from package.json: shown by `--version`,
 * and part of every cache key whose meaning a release may change (a newer
 * converter must not trust what an older one recorded).
 */
import {readFileSync} from 'node:fs'

function readVersion(): string {
  // The tests run from src/, compiled code from dist/src/: package.json is one or two levels up.
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      return (JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {version: string}).version
    } catch {
      // Try the next place.
    }
  }
  return '0.0.0'
}

/** The version of this kbsync. */
export const kbsyncVersion: string = readVersion()
