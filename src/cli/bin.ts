#!/usr/bin/env node
// SIGINT/SIGTERM stop the run (`shutdown.ts`): a command that stops gracefully records what it did and exits 130/143.
// Listening starts before the CLI loads, so a signal that comes early ends the process at once, with the same code.
import {boundHeapGrowth} from './heap.js'
import {clearLine} from './output/progress.js'
import {Shutdown} from './shutdown.js'

boundHeapGrowth(process.execArgv, process.env.NODE_OPTIONS)

// On a terminal the line replaces the progress bar being drawn, rather than running on after it.
const shutdown = new Shutdown({
  say: (line) => process.stderr.write((process.stderr.isTTY ? clearLine : '') + line + '\n')
})
const listening = shutdown.listen(process)
const {main} = await import('./main.js')
const code = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  shutdown
})
listening()
// A stopped run leaves at once: a connection kept alive or a timer must not hold it past the 3 s a CI runner waits.
if (shutdown.signal.aborted) process.exit(code)
process.exitCode = code
