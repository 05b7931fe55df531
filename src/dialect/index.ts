/** The dialect conversions: parse, stringify, GFM <-> dialect, HTML. */
export {parseKb} from './parse.js'
export {stringifyKb} from './stringify.js'
export {kbProcessor} from './processor.js'
