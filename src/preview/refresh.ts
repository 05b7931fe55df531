/**
 * The preview's rescans, one at a time: changes that come during a rescan
 * are gathered and cause one more, with every path they named (the rescan
 * re-reads exactly those files).
 */

/** Runs `rescan` serially; the returned function asks for one and resolves when the folder is up to date. */
export function serialRefresh(rescan: (paths: string[]) => Promise<void>): {
  refresh(paths?: string[]): Promise<void>
  readonly running: Promise<void> | undefined
} {
  let running: Promise<void> | undefined
  let queued: string[] | undefined
  const refresh = (paths: string[] = []): Promise<void> => {
    if (running) {
      queued = [...(queued ?? []), ...paths]
      return running
    }
    running = (async () => {
      try {
        await rescan(paths)
        while (queued) {
          const next = queued
          queued = undefined
          await rescan(next)
        }
      } finally {
        running = undefined
      }
    })()
    return running
  }
  return {
    refresh,
    get running() {
      return running
    }
  }
}
