/**
 * Preloaded (`node --import`) into a push that `corpus-push.ts` measures:
 * on exit, the process's own resource usage (CPU time, peak resident
 * memory) is written to the file `KBSYNC_USAGE_FILE` names.
 */
import {writeFileSync} from 'node:fs'

const usageFile = process.env.KBSYNC_USAGE_FILE
if (usageFile) process.on('exit', () => writeFileSync(usageFile, JSON.stringify(process.resourceUsage())))
