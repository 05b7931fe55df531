/** An error the server answers with its status and the platform's `error_code`. */
export class KbServerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

/** 400 `knowledge_base_invalid_request`. */
export function invalidRequest(message: string): KbServerError {
  return new KbServerError(400, 'knowledge_base_invalid_request', message)
}

/** 404 `knowledge_base_not_found`. */
export function notFound(id: string): KbServerError {
  return new KbServerError(404, 'knowledge_base_not_found', `No knowledge-base item with id '${id}'.`)
}
