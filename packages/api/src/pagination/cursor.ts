/**
 * Keyset cursors: the order values of the last item of a page, as the data source gave them,
 * carried opaquely in the `next` link (JSON in base64url). A client passes one back as
 * `cursor` to get the page after that item, at the same cost at any depth.
 */
export type CursorValues = readonly (string | number | null)[];

const MAX_VALUES = 64;

export function encodeCursor(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

/** The values of a cursor this API issued; undefined for anything else. */
export function decodeCursor(text: string): CursorValues | undefined {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(values) || values.length === 0 || values.length > MAX_VALUES) {
    return undefined;
  }
  const scalar = (value: unknown) =>
    value === null ||
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value));
  return values.every(scalar) ? (values as CursorValues) : undefined;
}
