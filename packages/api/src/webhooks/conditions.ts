import type { WebhookCondition } from './storage/webhook-storage.js';
import { isDeepStrictEqual } from 'node:util';
import { ConditionPattern } from './condition-pattern.js';

/**
 * ARK 3's webhook condition operators: `{ key, condition, value }` holds when the event data's
 * field at `key` (a dotted path) compares so with `value`. Numbers compare as numbers, integer
 * strings (amounts) exactly as big integers; `between`/`not-between` take `{ min, max }`
 * (bounds included); `contains` is a substring or an array element; `regexp` an RE2 pattern
 * matched against the value as text (condition-pattern.ts); `truthy`/`falsy` take no value.
 */
export const CONDITION_OPERATORS = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'not-between',
  'contains',
  'regexp',
  'truthy',
  'falsy',
] as const;

export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** A webhook's conditions, their patterns compiled once, to test on many events' data. */
export class ConditionSet {
  readonly #tests: readonly ((data: unknown) => boolean)[];
  /** Why a condition can never hold (a stored pattern RE2 cannot compile). */
  readonly problems: readonly string[];

  constructor(conditions: readonly WebhookCondition[]) {
    const problems: string[] = [];
    this.#tests = conditions.map((condition, index) => {
      const operator = condition.condition as ConditionOperator;
      if (operator !== 'regexp') {
        return (data) => holds(operator, valueAt(data, condition.key), condition.value);
      }
      try {
        const pattern = ConditionPattern.compile(String(condition.value));
        return (data) => {
          const actual = valueAt(data, condition.key);
          return actual !== undefined && pattern.test(String(actual));
        };
      } catch (error) {
        problems.push(`conditions[${index}]: ${(error as Error).message}`);
        return () => false;
      }
    });
    this.problems = problems;
  }

  /** Whether every condition holds on `data` (none: always). */
  holdOn(data: unknown): boolean {
    return this.#tests.every((test) => test(data));
  }
}

export function conditionsHold(conditions: readonly WebhookCondition[], data: unknown): boolean {
  return new ConditionSet(conditions).holdOn(data);
}

function holds(
  operator: Exclude<ConditionOperator, 'regexp'>,
  actual: unknown,
  expected: unknown,
): boolean {
  switch (operator) {
    case 'eq':
      return equal(actual, expected);
    case 'ne':
      return !equal(actual, expected);
    case 'gt':
      return compare(actual, expected) > 0;
    case 'gte':
      return compare(actual, expected) >= 0;
    case 'lt':
      return compare(actual, expected) < 0;
    case 'lte':
      return compare(actual, expected) <= 0;
    case 'between':
      return between(actual, expected);
    case 'not-between':
      return !between(actual, expected);
    case 'contains':
      return Array.isArray(actual)
        ? actual.some((item) => equal(item, expected))
        : typeof actual === 'string' && actual.includes(String(expected));
    case 'truthy':
      return Boolean(actual);
    case 'falsy':
      return !actual;
  }
}

function between(actual: unknown, range: unknown): boolean {
  const { min, max } = (range ?? {}) as { min?: unknown; max?: unknown };
  return compare(actual, min) >= 0 && compare(actual, max) <= 0;
}

/** Equal as numbers when both are numeric ("100" equals 100), else deeply. */
function equal(actual: unknown, expected: unknown): boolean {
  const order = compare(actual, expected);
  return Number.isNaN(order) ? isDeepStrictEqual(actual, expected) : order === 0;
}

/** Sign of actual - expected; NaN when either is not a number or numeric string. */
function compare(actual: unknown, expected: unknown): number {
  const a = numeric(actual);
  const b = numeric(expected);
  if (a === undefined || b === undefined) return Number.NaN;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const difference = Number(a) - Number(b);
  return Math.sign(difference);
}

function numeric(value: unknown): bigint | number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^-?\d+$/.test(value)) return BigInt(value);
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** The value at a dotted path (`asset.votes`, `amount`); undefined when absent. */
function valueAt(data: unknown, key: string): unknown {
  let current: unknown = data;
  for (const part of key.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
