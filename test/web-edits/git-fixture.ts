/**
 * The setting of the web-edits suites: a knowledge base on the local server
 * pulled into `docs/` of a git checkout (its state ignored, as many teams
 * do), committed on `main`, with a bare local repository as `origin`.
 */
import {execFileSync} from 'node:child_process'
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import type {KbClient} from '../../src/api/index.js'
import {cli} from '../e2e/push-helpers.js'

/** Git in `cwd` with a fixed identity; its trimmed output. */
export function gitIn(cwd: string, ...args: string[]): string {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Tester',
    GIT_AUTHOR_EMAIL: 'tester@example.com',
    GIT_COMMITTER_NAME: 'Tester',
    GIT_COMMITTER_EMAIL: 'tester@example.com'
  }
  return execFileSync('git', args, {cwd, env, encoding: 'utf8'}).trim()
}

/** The environment that points the CLI at the local server. */
export function serverEnv(server: {apiUrl: string; filesUrl: string; token: string}): NodeJS.ProcessEnv {
  return {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
}

/** A checkout with its origin and the knowledge base behind it. */
export interface Fixture {
  checkout: string
  docs: string
  origin: string
  rootTopic: string
  /** Article ids by title. */
  ids: Record<string, string>
  env: NodeJS.ProcessEnv
}

/**
 * Two articles under a new root topic, pulled into `<folder>/checkout/docs`
 * and committed (the state ignored, or with `ignoreState: false` committed
 * too); `origin` a bare repository.
 */
export async function makeFixture(
  client: KbClient,
  folder: string,
  env: NodeJS.ProcessEnv,
  options: {ignoreState?: boolean} = {}
): Promise<Fixture> {
  const root = await client.createItem({
    type: 'topic',
    title: `Handbook ${path.basename(folder)}`,
    parent_topic_id: null
  })
  const ids: Record<string, string> = {}
  const bodies: Record<string, string> = {
    Install: 'Run the installer.\n\nThen restart the service.\n\nCheck the logs.\n',
    Support: 'Write to the support team.\n\nAnswers come within a day.\n'
  }
  for (const [title, body] of Object.entries(bodies))
    ids[title] = (await client.createItem({type: 'article', title, parent_topic_id: root.id, body})).id
  const checkout = path.join(folder, 'checkout')
  const origin = path.join(folder, 'origin.git')
  await mkdir(checkout)
  gitIn(folder, 'init', '--quiet', '--bare', '--initial-branch=main', origin)
  gitIn(checkout, 'init', '--quiet', '--initial-branch=main')
  await writeFile(
    path.join(checkout, '.gitignore'),
    options.ignoreState === false ? 'docs/.kbsync/state.journal\n' : '.kbsync/\n'
  )
  const runEnv = {...env, KBSYNC_ROOT_TOPIC: root.id}
  const pulled = await cli(['pull', path.join(checkout, 'docs')], runEnv)
  if (pulled.code !== 0) throw new Error(`the first pull failed: ${pulled.err}`)
  gitIn(checkout, 'add', '--all')
  gitIn(checkout, 'commit', '--quiet', '-m', 'docs from the knowledge base')
  gitIn(checkout, 'remote', 'add', 'origin', origin)
  gitIn(checkout, 'push', '--quiet', 'origin', 'main')
  return {checkout, docs: path.join(checkout, 'docs'), origin, rootTopic: root.id, ids, env: runEnv}
}

/** Replaces `from` by `to` in an article's body on the platform (a web edit). */
export async function webEdit(client: KbClient, id: string, from: string, to: string): Promise<void> {
  const item = await client.getItem(id)
  const body = item.body ?? ''
  if (!body.includes(from)) throw new Error(`${JSON.stringify(from)} not in the body of ${id}: ${body}`)
  await client.updateItem(id, {body: body.replace(from, to)})
}

/** What must not change in the checkout: its HEAD, branch, status and files. */
export function checkoutState(checkout: string): {head: string; branch: string; status: string} {
  return {
    head: gitIn(checkout, 'rev-parse', 'HEAD'),
    branch: gitIn(checkout, 'symbolic-ref', '--short', 'HEAD'),
    status: gitIn(checkout, 'status', '--porcelain', '--untracked-files=all')
  }
}
