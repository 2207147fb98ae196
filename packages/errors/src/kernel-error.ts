/** Base error of the node: a stable `code` for programs, a message for people, and the cause kept. */
export class KernelError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
