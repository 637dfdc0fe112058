/** A typed error the error plugin turns into a JSON answer. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) => new HttpError(400, message, errors);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const forbidden = (message = 'You do not have permission to do that.') => new HttpError(403, message);
export const unauthorized = (message = 'Please sign in.') => new HttpError(401, message);
export const conflict = (message: string) => new HttpError(409, message);
