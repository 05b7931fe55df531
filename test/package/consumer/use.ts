// A strict TypeScript user of the published package: every entry point and the main kinds of use.
import {
  gfmToKb,
  kbToGfm,
  kbToHtml,
  parseKb,
  stringifyKb,
  KbClient,
  ApiError,
  planPush,
  push,
  pull,
  scanFolder,
  startServer,
  startPreview
} from 'kbsync'
import type {ClientOptions, Diagnostic, PullResult, PushOptions, PushResult, RunningServer, ScanResult} from 'kbsync'
import {remarkKb, remarkKbHintBlock, kbToMarkdown} from 'kbsync/plugins'
import type {HintBlock, Underline} from 'kbsync/plugins'
import {kbToHast, kbHastHandlers, createKbHastHandlers, parseKb as parseDialect} from 'kbsync/dialect'
import type {KbToHtmlOptions} from 'kbsync/dialect'
import type {Root as HastRoot} from 'hast'

export const dialect: string = stringifyKb(parseKb('<u>underlined</u>'))
export const converted = gfmToKb('> [!NOTE]\n> A note\n')
export const html = kbToHtml('**bold**')
export const markdown = kbToGfm('<mark data-color="red">marked</mark>')
export const plugins = [remarkKb, remarkKbHintBlock, kbToMarkdown] as const
export type Constructs = HintBlock | Underline
export const hast: HastRoot = kbToHast('<mark data-color="red">m</mark>')
export const handlers = [kbHastHandlers, createKbHastHandlers({clobberPrefix: ''} satisfies KbToHtmlOptions)]
export const problems: string[] = (parseDialect('<u>open').data?.messages ?? []).map((message) => message.reason)

/** Pushes a folder to a local server, then pulls it back. */
export async function roundTrip(dir: string, options: ClientOptions): Promise<[PushResult, PullResult, Diagnostic[]]> {
  const server: RunningServer = await startServer({port: 0})
  const client = new KbClient({...options, apiUrl: server.apiUrl, token: server.token})
  const scan: ScanResult = await scanFolder(dir)
  const pushOptions: PushOptions = {dir, client}
  const plan = await planPush(pushOptions)
  let pushed: PushResult
  try {
    pushed = await push(pushOptions)
  } catch (error) {
    if (error instanceof ApiError) throw new Error(`the API answered ${error.status}`, {cause: error})
    throw error
  }
  const pulled = await pull({dir, client})
  const preview = await startPreview({dir})
  await preview.close()
  await server.close()
  return [pushed, pulled, [...scan.diagnostics, ...plan.diagnostics]]
}
