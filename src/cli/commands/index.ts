/** Every command of the CLI, in the order `--help` lists them. */
import type {Command} from '../command.js'
import {planCommand} from './plan.js'
import {pushCommand} from './push.js'
import {pullCommand} from './pull.js'
import {previewCommand} from './preview.js'
import {initCommand} from './init.js'
import {statusCommand} from './status.js'
import {watchCommand} from './watch.js'
import {serveCommand} from './serve.js'
import {convertCommand} from './convert.js'
import {checkLinksCommand} from './check-links.js'

export const commands: Command[] = [
  initCommand,
  planCommand,
  pushCommand,
  pullCommand,
  statusCommand,
  checkLinksCommand,
  watchCommand,
  previewCommand,
  serveCommand,
  convertCommand
]
