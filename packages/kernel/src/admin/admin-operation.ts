import type Joi from 'joi';
import { KernelError } from '../errors.js';

/**
 * What an admin operation may answer: a JSON value, or a stream of them (`log --follow`),
 * sent as one JSON line each until the client goes or the node stops.
 */
export type AdminResult = unknown;

/** A stream of JSON values an operation answers with; `close` is called when the client goes. */
export interface AdminStream {
  readonly kind: 'stream';
  /** Subscribes `send` to the values; returns the unsubscribe. */
  open(send: (value: unknown) => void): () => void;
}

export function adminStream(open: AdminStream['open']): AdminStream {
  return { kind: 'stream', open };
}

/** An answer with something to do once it has been sent (`stop` stops after answering). */
export interface AdminAnswerThen {
  readonly kind: 'answer-then';
  readonly value: unknown;
  /** Not named `then`: the answer would be a thenable, and awaiting it would run this at once. */
  readonly afterwards: () => void;
}

export function answerThen(value: unknown, afterwards: () => void): AdminAnswerThen {
  return { kind: 'answer-then', value, afterwards };
}

export function isAnswerThen(value: unknown): value is AdminAnswerThen {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'answer-then'
  );
}

export function isAdminStream(value: unknown): value is AdminStream {
  return (
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'stream'
  );
}

/**
 * One thing an operator can ask a running node over its admin socket, such as `peers.ban`.
 * `args` is checked before `run` sees it: a mistake is answered naming the field and value.
 */
export interface AdminOperation<Args extends object = Record<string, unknown>> {
  /** `<area>.<verb>` in lower case, e.g. `pool.drop`; unique in the node. */
  readonly name: string;
  readonly description: string;
  readonly args?: Joi.ObjectSchema<Args>;
  run(args: Args): AdminResult | Promise<AdminResult>;
}

/**
 * Why an admin request was refused: it maps to the answer's status and `error.code`.
 * `refused`: well formed, but the node would not (a peer that does not verify).
 */
export type AdminErrorKind = 'bad-input' | 'not-found' | 'refused' | 'unknown-operation';

const STATUS: Record<AdminErrorKind, number> = {
  'bad-input': 400,
  'not-found': 404,
  refused: 409,
  'unknown-operation': 404,
};

/**
 * A request the node refuses with nothing changed: bad arguments, an unknown peer or
 * transaction, an operation nobody offers. Its message is the one line the operator sees.
 */
export class AdminError extends KernelError {
  constructor(
    readonly kind: AdminErrorKind,
    message: string,
  ) {
    super(`ERR_ADMIN_${kind.toUpperCase().replaceAll('-', '_')}`, message);
  }

  get status(): number {
    return STATUS[this.kind];
  }
}
