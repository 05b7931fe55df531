/**
 * Runs a composite action's steps as GitHub's runner does, for tests: the
 * `${{ }}` expressions of the contexts a composite action sees (`inputs`,
 * `github`, `steps`), each step's `if` (`success()` unless it says otherwise),
 * `run` steps in `bash --noprofile --norc -eo pipefail` with the runner's
 * `GITHUB_*` files and variables, outputs read back from `$GITHUB_OUTPUT`.
 * `uses` steps (setup-node, cache) are recorded, not run.
 */
import {spawn} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {parse} from 'yaml'
import {evaluate, interpolate, type Contexts} from './expressions.js'

/** A step of `runs.steps`. */
interface ActionStep {
  id?: string
  name?: string
  if?: string
  uses?: string
  with?: Record<string, string>
  run?: string
  shell?: string
  env?: Record<string, string>
  'working-directory'?: string
}

/** What a workflow gives the action. */
export interface RunnerOptions {
  /** The action's folder (holds `action.yml`): `github.action_path`. */
  actionPath: string
  /** `GITHUB_WORKSPACE`, the checkout, and each step's default working directory. */
  workspace: string
  /** The `with:` of the workflow's step. */
  inputs: Record<string, string>
  /** `github.event_name`, `github.ref` and the event's `repository.default_branch`. */
  event: {name: string; ref: string; defaultBranch: string}
  /** A folder for the runner's files (step summary, outputs). */
  temp: string
  /** Variables of the job (`env:`), added to the runner's own. */
  env?: Record<string, string>
}

/** What happened to one step. */
export interface StepRecord {
  name: string
  /** `skipped` when its `if` was false; `uses` steps are `recorded`. */
  outcome: 'success' | 'failure' | 'skipped' | 'recorded'
  uses?: string
  with?: Record<string, string>
  exitCode?: number
  stdout: string
  stderr: string
}

/** The run: each step, the action's outputs, and the job summary written. */
export interface ActionRun {
  steps: StepRecord[]
  outputs: Record<string, string>
  /** Whether the action failed (a step that ran failed). */
  failed: boolean
  summary: string
}

/** Runs the composite action at `options.actionPath` as the runner would. */
export async function runAction(options: RunnerOptions): Promise<ActionRun> {
  const action = parse(readFileSync(path.join(options.actionPath, 'action.yml'), 'utf8'))
  if (action.runs?.using !== 'composite') throw new Error('action.yml: runs.using is not composite')
  const inputs: Record<string, string> = {}
  for (const [name, spec] of Object.entries<{default?: string}>(action.inputs ?? {}))
    inputs[name] = options.inputs[name] ?? spec.default ?? ''
  const summaryFile = path.join(options.temp, 'step-summary.md')
  writeFileSync(summaryFile, '')
  const contexts: Contexts = {
    inputs,
    github: {
      action_path: options.actionPath,
      event_name: options.event.name,
      ref: options.event.ref,
      run_id: '1',
      workspace: options.workspace,
      event: {repository: {default_branch: options.event.defaultBranch}}
    },
    steps: {}
  }
  const steps: StepRecord[] = []
  let failed = false
  for (const [index, step] of (action.runs.steps as ActionStep[]).entries()) {
    const name = interpolate(step.name ?? step.uses ?? `step ${index + 1}`, contexts, failed)
    if (!evaluate(step.if ?? 'success()', contexts, failed)) {
      steps.push({name, outcome: 'skipped', stdout: '', stderr: ''})
      continue
    }
    if (step.uses) {
      const given = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v), contexts, failed)])
      )
      steps.push({name, outcome: 'recorded', uses: step.uses, with: given, stdout: '', stderr: ''})
      continue
    }
    const record = await runStep(step, index, contexts, failed, {...options, summaryFile})
    steps.push(record)
    if (record.outcome === 'failure') failed = true
  }
  const outputs = Object.fromEntries(
    Object.entries<{value: string}>(action.outputs ?? {}).map(([name, spec]) => [
      name,
      interpolate(spec.value, contexts, failed)
    ])
  )
  return {steps, outputs, failed, summary: readFileSync(summaryFile, 'utf8')}
}

/** Runs one `run` step in bash; its outputs go into `contexts.steps[id]`. */
async function runStep(
  step: ActionStep,
  index: number,
  contexts: Contexts,
  failed: boolean,
  options: RunnerOptions & {summaryFile: string}
): Promise<StepRecord> {
  if (step.shell !== 'bash')
    throw new Error(
      `step ${index + 1}: a composite action's run step needs shell: bash (it has ${step.shell ?? 'none'})`
    )
  const script = path.join(options.temp, `step-${index}.sh`)
  const outputFile = path.join(options.temp, `output-${index}`)
  writeFileSync(script, interpolate(step.run!, contexts, failed))
  writeFileSync(outputFile, '')
  const stepEnv = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(String(v), contexts, failed)])
  )
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? options.temp,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_ACTION_PATH: options.actionPath,
    GITHUB_EVENT_NAME: options.event.name,
    GITHUB_REF: options.event.ref,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: options.summaryFile,
    RUNNER_TEMP: options.temp,
    ...options.env,
    ...stepEnv
  }
  const cwd = step['working-directory'] ? interpolate(step['working-directory'], contexts, failed) : options.workspace
  // Not spawnSync: the test's server runs in this process and must go on answering.
  const result = await runBash(script, cwd, env)
  if (step.id) contexts.steps[step.id] = {outputs: readOutputs(readFileSync(outputFile, 'utf8'))}
  const name = interpolate(step.name ?? `step ${index + 1}`, contexts, failed)
  return {name, outcome: result.exitCode === 0 ? 'success' : 'failure', ...result}
}

/** Runs `script` as the runner runs a `shell: bash` step. */
function runBash(
  script: string,
  cwd: string,
  env: Record<string, string>
): Promise<{exitCode: number; stdout: string; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({exitCode: code ?? 1, stdout, stderr}))
  })
}

/** The `name=value` and `name<<DELIMITER` lines of a `$GITHUB_OUTPUT` file. */
export function readOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1)
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n')
      i = end
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1)
    }
  }
  return outputs
}
