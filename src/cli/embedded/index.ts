/**
 * The embedded knowledge base shared by any number of kbsync processes: one
 * owner serves the data file, the others use its server (see `share.ts`).
 */
export {acquireEmbedded, type AcquireOptions, type EmbeddedServer, type Lease} from './share.js'
export {leasedClient, type LeasedClient} from './client.js'
export {readRecord, recordPath, type ServerRecord} from './record.js'
export {isAlive} from './liveness.js'
export {serveOwned} from './own.js'
