/**
 * `record[key]` only when `key` is the record's own property. Field catalogs and name maps are
 * plain objects, so a user-given name such as `__proto__`, `constructor` or `toString` would
 * otherwise read a member of `Object.prototype` and pass for a known field.
 */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
