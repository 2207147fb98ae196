import { KernelError } from '@lni/kernel';

/** The database cannot be reached, or answered with an error where none was expected. */
export class DatabaseError extends KernelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_DATABASE', message, options);
  }
}

/** The stored chain is inconsistent; the node must not build state from it. */
export class IntegrityError extends KernelError {
  constructor(
    readonly height: number,
    readonly reason: string,
  ) {
    super('ERR_DB_INTEGRITY', `Stored chain is inconsistent at height ${height}: ${reason}`);
  }
}

/** A criteria tree or ordering the query compiler refuses, naming the field and why. */
export class QueryCriteriaError extends KernelError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super('ERR_DB_CRITERIA', `Invalid criteria for "${field}": ${reason}`);
  }
}

/** Schema migration or the 2.7 upgrade could not proceed. */
export class MigrationError extends KernelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_DB_MIGRATION', message, options);
  }
}

/**
 * A search ran past its time budget and was cancelled: the node is busy, not broken; the API
 * answers 503 with Retry-After.
 */
export class SearchTimeoutError extends KernelError {
  constructor(readonly timeoutMs: number) {
    super('ERR_DB_SEARCH_TIMEOUT', `The search took longer than its budget of ${timeoutMs} ms`);
  }
}
