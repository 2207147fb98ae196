/**
 * Amounts are bigint in the ledger and decimal strings on the wire: JSON has no integer wide
 * enough for them, and 3.0 clients parse them as strings.
 */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export function toJsonValue(value: unknown): JsonValue | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((item) => toJsonValue(item) ?? null);
  if (typeof value === 'object') {
    // fromEntries defines own properties: a key named __proto__ stays a key.
    const entries: [string, JsonValue][] = [];
    for (const [key, item] of Object.entries(value)) {
      const converted = toJsonValue(item);
      if (converted !== undefined) entries.push([key, converted]);
    }
    return Object.fromEntries(entries);
  }
  return undefined;
}
