/**
 * The commands of the CLI as `--help` lists them: a name and one line
 * each, and how to load the command. Loading one command imports only what
 * it uses: `kbsync --version` and `kbsync --help` import no conversion,
 * server or preview stack, and `kbsync pull` none of the preview's.
 */
import type {Command} from '../command.js'

/** One command of the list: what `--help` shows of it, and its module, loaded on demand. */
export interface CommandEntry {
  name: string
  /** One line for the command list. */
  summary: string
  load(): Promise<Command>
}

/** Every command, in the order `--help` lists them. */
export const commandCatalog: readonly CommandEntry[] = [
  {
    name: 'init',
    summary: 'write a kbsync.config.json and a .kbsyncignore',
    load: async () => (await import('./init.js')).initCommand
  },
  {
    name: 'plan',
    summary: 'show what a push would change, without writing',
    load: async () => (await import('./plan.js')).planCommand
  },
  {
    name: 'push',
    summary: 'push a folder of Markdown to the knowledge base',
    load: async () => (await import('./push.js')).pushCommand
  },
  {
    name: 'pull',
    summary: 'bring the knowledge base (or one topic) into a folder',
    load: async () => (await import('./pull.js')).pullCommand
  },
  {
    name: 'status',
    summary: 'what changed locally and on the platform since the last sync',
    load: async () => (await import('./status.js')).statusCommand
  },
  {
    name: 'check-links',
    summary: 'check every external link and image URL of the folder',
    load: async () => (await import('./check-links.js')).checkLinksCommand
  },
  {
    name: 'watch',
    summary: 'push each saved change until Ctrl-C',
    load: async () => (await import('./watch.js')).watchCommand
  },
  {
    name: 'preview',
    summary: 'show the folder in a browser as the platform will, with live reload',
    load: async () => (await import('./preview.js')).previewCommand
  },
  {
    name: 'serve',
    summary: 'run the local knowledge-base server (the embedded default and test double)',
    load: async () => (await import('./serve.js')).serveCommand
  },
  {
    name: 'convert',
    summary: 'convert one body between GFM, the dialect, preview HTML and comment HTML',
    load: async () => (await import('./convert.js')).convertCommand
  }
]

/** The one line `--help` shows for the command `name` (each command module takes its summary from here). */
export function commandSummary(name: string): string {
  const entry = commandCatalog.find((command) => command.name === name)
  if (!entry) throw new Error(`no command ${name} in the catalog`)
  return entry.summary
}
