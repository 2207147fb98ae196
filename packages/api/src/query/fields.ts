/**
 * How a field of a resource is filtered and ordered. `amount` is an integer too large for a
 * JavaScript number, written as a decimal string in responses and compared as a number.
 */
export type FieldType = 'string' | 'integer' | 'amount' | 'number' | 'boolean';

export interface FieldSpec {
  readonly type: FieldType;
  readonly description?: string;
  /** Filtering on this field; true unless stated. */
  readonly filter?: boolean;
  /** `orderBy` on this field; true unless stated. */
  readonly order?: boolean;
}

/** The filterable fields of a resource by dotted path, as they appear in its JSON. */
export type FieldCatalog = Readonly<Record<string, FieldSpec>>;

export type FieldValue = string | number | bigint | boolean;

export const isNumeric = (type: FieldType): boolean =>
  type === 'integer' || type === 'amount' || type === 'number';

const INTEGER = /^-?\d{1,16}$/;
const AMOUNT = /^\d{1,78}$/;
const NUMBER = /^-?\d{1,16}(\.\d{1,16})?$/;

/** Parses one value of a query parameter for a field; undefined when it is not of the type. */
export function parseFieldValue(type: FieldType, raw: string): FieldValue | undefined {
  switch (type) {
    case 'string':
      return raw;
    case 'integer':
      return INTEGER.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined;
    case 'amount':
      return AMOUNT.test(raw) ? BigInt(raw) : undefined;
    case 'number':
      return NUMBER.test(raw) ? Number(raw) : undefined;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
  }
}

export function describeType(type: FieldType): string {
  switch (type) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'amount':
      return 'a non-negative integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
  }
}
