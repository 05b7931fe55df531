/**
 * Rendering PlantUML and D2 with their own programs, when installed: the
 * program the user names (`KBSYNC_PLANTUML`, `KBSYNC_D2`, or `plantuml` /
 * `d2` in the user config: never the repository's, which may not name a
 * program) or the one on PATH. Spawned without a shell, the source on its
 * standard input, the SVG read from its standard output, with a time limit
 * and a size cap. PlantUML runs with its SANDBOX security profile, so a
 * diagram's `!include` cannot read the machine's files or fetch URLs; D2
 * runs without bundling, so it fetches no image a diagram names.
 */
import {spawn} from 'node:child_process'
import path from 'node:path'
import {maxSvgBytes} from '../trust/index.js'
import type {RenderOutcome} from './mermaid-render.js'
import {isExecutable} from './browser.js'

/** The kinds rendered by an external program. */
export type ToolKind = 'plantuml' | 'd2'

/** How each program is run: its usual name, the variable naming it, its arguments, its environment. */
const tools: Record<ToolKind, {command: string; env: string; args: readonly string[]; extraEnv: NodeJS.ProcessEnv}> = {
  plantuml: {
    command: 'plantuml',
    env: 'KBSYNC_PLANTUML',
    args: ['-tsvg', '-pipe', '-charset', 'UTF-8', '-nometadata'],
    // No file, no URL, no environment variable reaches a diagram (PlantUML's own profile for untrusted sources).
    extraEnv: {PLANTUML_SECURITY_PROFILE: 'SANDBOX'}
  },
  d2: {command: 'd2', env: 'KBSYNC_D2', args: ['--bundle=false', '-', '-'], extraEnv: {}}
}

/** One diagram may take this long. */
const toolTimeoutMs = 60_000

/** The variable that names the program of `kind`, for messages. */
export function toolVariable(kind: ToolKind): string {
  return tools[kind].env
}

/** The usual name of the program of `kind` (`plantuml`, `d2`), for messages. */
export function toolCommand(kind: ToolKind): string {
  return tools[kind].command
}

/**
 * The program that renders `kind`: `configured` (the user's setting) when
 * given, else the variable's value, else the first `plantuml` / `d2` on
 * PATH; `{missing}` says what was looked for.
 */
export function findTool(
  kind: ToolKind,
  configured: string | undefined,
  env: NodeJS.ProcessEnv = process.env
): {path: string} | {missing: string} {
  const named = configured?.trim() || env[tools[kind].env]?.trim()
  if (named) return isExecutable(named) ? {path: named} : {missing: `${named} is not an executable file`}
  const command = tools[kind].command
  for (const folder of (env.PATH ?? '').split(path.delimiter)) {
    if (folder === '' || !path.isAbsolute(folder)) continue
    const candidate = path.join(folder, command)
    if (isExecutable(candidate)) return {path: candidate}
  }
  return {missing: `\`${command}\` is not installed`}
}

/** A PlantUML source as the program reads it: a fence's body without `@startuml` gets one. */
function plantumlInput(source: string): string {
  return /^\s*@start[a-z]+\b/.test(source) ? source + '\n' : `@startuml\n${source}\n@enduml\n`
}

/** Runs `program` (of `kind`) on `source`; its SVG, or what went wrong (its own message when it gave one). */
export function renderWithTool(kind: ToolKind, program: string, source: string): Promise<RenderOutcome> {
  const tool = tools[kind]
  const input = kind === 'plantuml' ? plantumlInput(source) : source + '\n'
  return new Promise((resolve) => {
    const child = spawn(program, [...tool.args], {
      shell: false,
      env: {...process.env, ...tool.extraEnv},
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: toolTimeoutMs,
      killSignal: 'SIGKILL'
    })
    const out: Buffer[] = []
    let outBytes = 0
    let err = ''
    let tooLarge = false
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length
      if (outBytes > maxSvgBytes) {
        tooLarge = true
        child.kill('SIGKILL')
      } else out.push(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 4000) err += chunk.toString('utf8')
    })
    child.on('error', (error) => resolve({error: `${program} did not start: ${error.message}`}))
    child.on('close', (code, signal) => {
      const message = err
        .replace(/\p{Cc}/gu, ' ')
        .trim()
        .slice(0, 500)
      if (tooLarge) resolve({error: `its SVG is larger than ${maxSvgBytes / 1024 / 1024} MB`})
      else if (signal !== null) resolve({error: `${program} was stopped (${signal}): over ${toolTimeoutMs / 1000} s?`})
      else if (code !== 0) resolve({error: message || `${program} exited with code ${code}`})
      else resolve(svgOf(Buffer.concat(out).toString('utf8'), program))
    })
    // A program that stops reading (or never starts) must not fail the run through its pipe.
    child.stdin.on('error', () => undefined)
    child.stdin.end(input)
  })
}

/** The `<svg>` document of a program's output (PlantUML writes an XML declaration before it). */
function svgOf(text: string, program: string): RenderOutcome {
  const start = text.indexOf('<svg')
  return start === -1 ? {error: `${program} wrote no SVG`} : {svg: text.slice(start)}
}
