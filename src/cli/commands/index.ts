/** Every command of the CLI, in the order `--help` lists them. */
import type {Command} from '../command.js'

export const commands: Command[] = []
