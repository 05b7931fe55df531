/**
 * The bearer tokens a server accepts: the configured one, and those `/auth`
 * issued, which persist. Issued tokens belong to the credentials that
 * issued them, as on the platform, where a new security key revokes them:
 * a server started with other credentials (or exposed, where the public
 * ones are refused) does not honour tokens the earlier ones issued.
 */
import {createHash} from 'node:crypto'
import {localCredentials, type Credentials} from './exposure.js'

/** The token sets the request pipeline checks. */
export interface TokenSets {
  valid: Set<string>
  revoked: Set<string>
  expired: Set<string>
}

/** Names `credentials` in the data file without holding them: a one-way hash (undefined: no logins accepted). */
function issuerOf(credentials: Credentials | undefined): string | undefined {
  if (!credentials) return undefined
  return createHash('sha256')
    .update(`kbsync-local-server\0${credentials.login}\0${credentials.securityKey}`)
    .digest('hex')
}

/**
 * The tokens of a server that accepts `token` and logs in `credentials`,
 * given those persisted with the issuer that issued them (files of earlier
 * versions name none: theirs were the public local credentials).
 */
export function createTokens(
  token: string,
  credentials: Credentials | undefined,
  persisted?: {tokens: string[]; tokensIssuer?: string}
) {
  const issuer = issuerOf(credentials)
  const persistedIssuer = persisted?.tokensIssuer ?? issuerOf(localCredentials)
  const kept = issuer !== undefined && persistedIssuer === issuer ? (persisted?.tokens ?? []) : []
  const issued = new Set(kept)
  const sets: TokenSets = {valid: new Set([token, ...kept]), revoked: new Set(), expired: new Set()}
  return {
    sets,
    /** Records a token `/auth` issued. */
    add(fresh: string): void {
      sets.valid.add(fresh)
      issued.add(fresh)
    },
    /** What the data file keeps. */
    persisted: (): {tokens: string[]; tokensIssuer?: string} => ({
      tokens: [...issued],
      ...(issuer ? {tokensIssuer: issuer} : {})
    })
  }
}
