import type { FieldValue } from '@lni/state';

/** The values a statement binds, numbered as they are added ($1, $2, …). */
export class SqlParameters {
  readonly values: unknown[] = [];

  /** Binds a value (amounts as decimal text) and returns its placeholder with the given cast. */
  add(value: FieldValue | readonly FieldValue[], cast: string): string {
    const bound = Array.isArray(value)
      ? value.map(asDriverValue)
      : asDriverValue(value as FieldValue);
    this.values.push(bound);
    return `$${this.values.length}::${cast}${Array.isArray(value) ? '[]' : ''}`;
  }
}

function asDriverValue(value: FieldValue): string | number | boolean {
  return typeof value === 'bigint' ? value.toString() : value;
}
