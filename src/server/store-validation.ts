/**
 * The local server's checks of request fields, as the platform makes them:
 * each returns the valid value or throws the platform's 400.
 */
import type {ItemType, Person} from '../api/types.js'
import {invalidRequest, KbServerError} from './errors.js'

/** A non-blank title, or the platform's `knowledge_base_title_required`. */
export function requireTitle(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new KbServerError(400, 'knowledge_base_title_required', 'title is required.')
  }
  return value
}

/** A non-blank body, or the platform's `knowledge_base_body_required` (a topic's message says to leave it out instead). */
export function requireBody(value: unknown, type: ItemType): string {
  if (typeof value !== 'string' || value.trim() === '') {
    const why =
      type === 'article'
        ? 'An article needs a non-empty body.'
        : 'A topic body cannot be empty: leave body out to keep the one it has.'
    throw new KbServerError(400, 'knowledge_base_body_required', why)
  }
  return value
}

/** Whether a request field was sent: null is an absent field, as on the platform. */
export function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null
}

/** The user ids of a `readers`/`editors` field, each a known user, without repeats; none when the field is absent. */
export function userIdsOf(value: unknown, key: string, users: readonly Person[]): number[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || !value.every((v) => Number.isInteger(v))) {
    throw invalidRequest(`${key} must be an array of user ids.`)
  }
  const ids: number[] = value
  const unknown = ids.filter((v) => !users.some((u) => u.id === v))
  if (unknown.length > 0) throw invalidRequest(`Unknown user id(s) in ${key}: ${unknown.join(', ')}.`)
  return [...new Set(ids)]
}
