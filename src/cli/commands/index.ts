/** Every command of the CLI, in the order `--help` lists them. */
import type {Command} from '../command.js'
import {planCommand} from './plan.js'
import {pushCommand} from './push.js'
import {pullCommand} from './pull.js'
import {previewCommand} from './preview.js'

export const commands: Command[] = [planCommand, pushCommand, pullCommand, previewCommand]
