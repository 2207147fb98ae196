import { QueryCriteriaError } from '../errors.js';
import type { Scalar } from './criteria.js';
import type { ColumnType } from './table-specs.js';

const INTEGER_RANGES: Record<'smallint' | 'integer' | 'bigint', readonly [bigint, bigint]> = {
  smallint: [-(2n ** 15n), 2n ** 15n - 1n],
  integer: [-(2n ** 31n), 2n ** 31n - 1n],
  bigint: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** Text PostgreSQL accepts: it refuses NUL characters anywhere in a string. */
export function checkText(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new QueryCriteriaError(field, 'expected a string');
  if (value.includes('\u0000')) {
    throw new QueryCriteriaError(field, 'contains a NUL character');
  }
  return value;
}

/** Coerces a criterion value to what the driver sends for a column of `type`. */
export function columnValue(
  field: string,
  type: ColumnType,
  value: Scalar,
): string | number | Buffer {
  switch (type) {
    case 'text':
      return checkText(field, value);
    case 'utf8-bytea':
      return Buffer.from(checkText(field, value), 'utf8');
    default: {
      const integer = toInteger(field, value);
      const [min, max] = INTEGER_RANGES[type];
      if (integer < min || integer > max) {
        throw new QueryCriteriaError(field, `${integer} is outside the ${type} range`);
      }
      return type === 'bigint' ? integer.toString() : Number(integer);
    }
  }
}

/** A number given as a decimal string, number or bigint, for numeric comparisons. */
export function numericValue(field: string, value: Scalar): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && /^-?\d{1,100}(\.\d{1,100})?$/.test(value)) return value;
  throw new QueryCriteriaError(field, 'expected a number');
}

function toInteger(field: string, value: Scalar): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d{1,40}$/.test(value)) return BigInt(value);
  throw new QueryCriteriaError(field, 'expected an integer');
}
