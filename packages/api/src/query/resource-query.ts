import type { CursorValues } from '../pagination/cursor.js';
import type { FieldValue } from './fields.js';

/** A condition on one field: any of `values` (OR), or within `from`..`to` (inclusive). */
export type FieldCondition =
  | { readonly kind: 'in'; readonly field: string; readonly values: readonly FieldValue[] }
  | {
      readonly kind: 'range';
      readonly field: string;
      readonly from?: FieldValue;
      readonly to?: FieldValue;
    };

export interface Ordering {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

/**
 * What an index request asks for, typed and validated: every condition must hold (AND),
 * results in `orderBy` order, the page given by offset and limit, or by `after` (a cursor's
 * values) and limit; `page` then only numbers it.
 */
export interface ResourceQuery {
  readonly conditions: readonly FieldCondition[];
  readonly orderBy: readonly Ordering[];
  readonly offset: number;
  readonly limit: number;
  readonly page: number;
  readonly after?: CursorValues;
}
