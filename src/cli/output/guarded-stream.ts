/**
 * A stream for the commands that write their lines themselves (`convert`'s
 * messages, `preview`'s and `serve`'s notices) instead of through the
 * reporter: whatever they write meets the rule of every line the reporter
 * prints (`terminalText`: control characters shown escaped, and under GitHub
 * Actions no line able to start a workflow command).
 */
import {terminalText} from '../../trust/index.js'
import type {OutputStream} from './reporter.js'

/** `stream` with every chunk written made safe by `terminalText` (its own line ends kept). */
export function guardedStream(stream: OutputStream, env: NodeJS.ProcessEnv): OutputStream {
  const github = env.GITHUB_ACTIONS === 'true'
  return {
    write: (chunk: string) => stream.write(terminalText(chunk, {github})),
    ...(stream.isTTY !== undefined ? {isTTY: stream.isTTY} : {}),
    ...(stream.columns !== undefined ? {columns: stream.columns} : {})
  }
}
