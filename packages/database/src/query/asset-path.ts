import { QueryCriteriaError } from '../errors.js';
import type { Scalar } from './criteria.js';

const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_DEPTH = 4;

/** Splits `asset.payments.recipientId` into checked key names; undefined for a plain column. */
export function assetPath(field: string): string[] | undefined {
  if (!field.startsWith('asset.')) return undefined;
  const segments = field.slice('asset.'.length).split('.');
  if (segments.length > MAX_DEPTH) {
    throw new QueryCriteriaError(field, `asset paths go at most ${MAX_DEPTH} keys deep`);
  }
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) {
      throw new QueryCriteriaError(field, `"${segment}" is not a valid asset key`);
    }
  }
  return segments;
}

/** A JSON value for an asset comparison; bigint goes as its decimal string, as assets store it. */
export function assetValue(field: string, value: Scalar): string | number | boolean | null {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new QueryCriteriaError(field, 'expected a finite number');
  }
  if (typeof value === 'string' && value.includes('\u0000')) {
    throw new QueryCriteriaError(field, 'contains a NUL character');
  }
  return value;
}

/**
 * The containment documents meaning "the value at this path equals `value`", where any key
 * along the path may hold an array (votes is a list of strings, payments a list of objects).
 * `asset @> doc` for one of them is exactly that, and the GIN index on asset answers it.
 */
export function containmentDocuments(
  path: readonly string[],
  value: string | number | boolean | null,
): string[] {
  let documents: unknown[] = [value];
  for (let index = path.length - 1; index >= 0; index -= 1) {
    const key = path[index] as string;
    documents = documents.flatMap((inner) => [{ [key]: inner }, { [key]: [inner] }]);
  }
  return documents.map((document) => JSON.stringify(document));
}
