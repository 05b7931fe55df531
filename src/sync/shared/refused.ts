/**
 * A run refused before it wrote anything because of its input (the folder,
 * its configuration, what it asks of the knowledge base): invalid input, exit
 * 2, as a push that finds errors in the folder. A runtime failure (network,
 * disk) is something else, exit 1.
 */

/** A sync refused because of its input; nothing was written. */
export class RefusedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RefusedError'
  }
}
