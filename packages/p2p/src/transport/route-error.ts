/**
 * Why the server refused a request. ARK's rule: only 499 ("not ready yet") is answered; any other
 * error closes the socket without a reply, and the client sees the connection drop.
 */
export class RouteError extends Error {
  override readonly name = 'RouteError';

  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
