export {main, generalHelp, commandHelp, packageVersion} from './main.js'
export {UsageError} from './errors.js'
export type {Command, CommandContext} from './command.js'
export {exitCodes} from './exit-codes.js'
