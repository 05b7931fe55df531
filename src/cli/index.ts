export {main, UsageError, generalHelp, commandHelp, packageVersion} from './main.js'
export type {Command, CommandContext} from './command.js'
export {exitCodes} from './exit-codes.js'
