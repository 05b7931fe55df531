/**
 * kbsync's library API: the dialect conversions. Plugins are exported from
 * `kbsync/plugins`.
 */
export * from './dialect/index.js'
