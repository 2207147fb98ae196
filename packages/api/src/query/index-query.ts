import Joi from 'joi';
import {
  describeType,
  isNumeric,
  parseFieldValue,
  type FieldCatalog,
  type FieldType,
  type FieldValue,
} from './fields.js';
import { decodeCursor, type CursorValues } from '../pagination/cursor.js';
import { ownEntry } from './own-entry.js';
import type { FieldCondition, Ordering, ResourceQuery } from './resource-query.js';
import { sparseQueryRule, type QueryRule } from './sparse-query.js';

export const MAX_LIMIT = 100;
export const MAX_LIST_VALUES = 1_000;

/** 2.x searched a list of addresses with `addresses`; 3.0 takes a comma list in `address`. */
export const ADDRESSES_REMOVED = 'was removed in 3.0: use "address" with comma-separated values';

/** How an index endpoint reads its query string. */
export interface IndexQueryDefinition {
  readonly catalog: FieldCatalog;
  readonly defaultOrder: readonly Ordering[];
  /** Parameters removed in 3.0 (or never fields), with the message that says what to use. */
  readonly refused?: Readonly<Record<string, string>>;
  /** Whether `cursor` (keyset paging, from `meta.next`) is served; others refuse it with 422. */
  readonly cursor?: boolean;
  /** Parameters that are not fields of the resource, such as `address` on transactions. */
  readonly extra?: Readonly<Record<string, Joi.Schema>>;
}

const message = (helpers: Joi.CustomHelpers, text: string) =>
  helpers.message({ custom: `{{#label}} ${text.replace(/[{}]/g, '')}` });

function listOf(type: FieldType): Joi.CustomValidator {
  return (raw: string, helpers) => {
    const parts = raw.split(',');
    if (parts.length > MAX_LIST_VALUES) {
      return message(helpers, `takes at most ${MAX_LIST_VALUES} comma-separated values`);
    }
    const values: FieldValue[] = [];
    for (const part of parts) {
      const value = parseFieldValue(type, part);
      if (value === undefined) {
        return message(helpers, `must be ${describeType(type)}, not '${part.slice(0, 80)}'`);
      }
      values.push(value);
    }
    return values;
  };
}

function single(type: FieldType): Joi.CustomValidator {
  return (raw: string, helpers) => {
    const value = parseFieldValue(type, raw);
    return value === undefined
      ? message(helpers, `must be ${describeType(type)}, not '${raw.slice(0, 80)}'`)
      : value;
  };
}

function orderByOf(catalog: FieldCatalog): Joi.CustomValidator {
  return (raw: string, helpers) => {
    const orderings: Ordering[] = [];
    for (const part of raw.split(',')) {
      const [field = '', direction = 'asc', ...rest] = part.split(':');
      const spec = ownEntry(catalog, field);
      if (!spec || spec.order === false) {
        return message(
          helpers,
          `cannot order by '${field.slice(0, 80)}': not a field of this resource`,
        );
      }
      if ((direction !== 'asc' && direction !== 'desc') || rest.length > 0) {
        return message(helpers, `direction of '${field}' must be asc or desc`);
      }
      orderings.push({ field, direction });
    }
    return orderings;
  };
}

/** The joi schema of an index endpoint's query string, from its field catalog. */
export function indexQuerySchema(definition: IndexQueryDefinition): Joi.ObjectSchema {
  const keys: Record<string, Joi.Schema> = {
    page: Joi.number().integer().min(1).max(1_000_000_000).default(1).description('page, from 1'),
    limit: Joi.number().integer().min(1).max(MAX_LIMIT).default(MAX_LIMIT).description('page size'),
    offset: Joi.number()
      .integer()
      .min(0)
      .max(1_000_000_000_000)
      .description('items to skip; wins over page'),
    cursor: definition.cursor
      ? Joi.string()
          .max(20_000)
          .custom((raw: string, helpers) => {
            const values = decodeCursor(raw);
            return (
              values ?? message(helpers, 'is not a cursor of this API (take it from meta.next)')
            );
          })
          .description('the page after the item this cursor names, as meta.next carries it')
      : Joi.any().forbidden().messages({
          'any.unknown':
            '"cursor" is not served here: page with "page" (a deep page costs what the first does)',
        }),
    orderBy: Joi.string()
      .max(1_000)
      .custom(orderByOf(definition.catalog))
      .description('field:asc or field:desc, several separated by commas; dotted paths allowed'),
  };
  for (const [field, spec] of Object.entries(definition.catalog)) {
    if (spec.filter === false) continue;
    keys[field] = Joi.string()
      .max(200_000)
      .custom(listOf(spec.type))
      .description(
        `${spec.description ?? field}: one value or a comma-separated list (any of them)`,
      );
    if (isNumeric(spec.type)) {
      keys[`${field}.from`] = Joi.string()
        .custom(single(spec.type))
        .description(`${field} at least`);
      keys[`${field}.to`] = Joi.string().custom(single(spec.type)).description(`${field} at most`);
    }
  }
  for (const [name, schema] of Object.entries(definition.extra ?? {})) keys[name] = schema;
  for (const [name, text] of Object.entries(definition.refused ?? {})) {
    keys[name] = Joi.any()
      .forbidden()
      .messages({ 'any.unknown': `"${name}" ${text}` });
  }
  return Joi.object(keys).messages({
    'object.unknown': '{{#label}} is not a field of this resource',
  });
}

/**
 * The query rule an index route validates with: its `indexQuerySchema`, checked key by key
 * (see SparseQuerySchema).
 */
export function indexQueryRule(definition: IndexQueryDefinition): QueryRule {
  return sparseQueryRule(indexQuerySchema(definition));
}

const filterKeys = new WeakMap<IndexQueryDefinition, readonly [string, string, string][]>();

/** Each field of the catalog with its range keys, spelled once per definition, not per request. */
function filterKeysOf(definition: IndexQueryDefinition): readonly [string, string, string][] {
  let keys = filterKeys.get(definition);
  if (keys === undefined) {
    keys = Object.keys(definition.catalog).map((field) => [field, `${field}.from`, `${field}.to`]);
    filterKeys.set(definition, keys);
  }
  return keys;
}

/** Turns a validated query into the typed conditions, order and page the data sources take. */
export function toResourceQuery(
  query: Readonly<Record<string, unknown>>,
  definition: IndexQueryDefinition,
): ResourceQuery {
  const conditions: FieldCondition[] = [];
  for (const [field, fromKey, toKey] of filterKeysOf(definition)) {
    const values = query[field] as FieldValue[] | undefined;
    if (values !== undefined) conditions.push({ kind: 'in', field, values });
    const from = query[fromKey] as FieldValue | undefined;
    const to = query[toKey] as FieldValue | undefined;
    if (from !== undefined || to !== undefined) {
      conditions.push({
        kind: 'range',
        field,
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
      });
    }
  }
  const limit = query.limit as number;
  const offset = (query.offset as number | undefined) ?? ((query.page as number) - 1) * limit;
  const ordering = (query.orderBy as Ordering[] | undefined) ?? definition.defaultOrder;
  const after = query.cursor as CursorValues | undefined;
  return {
    conditions,
    orderBy: ordering,
    offset,
    limit,
    page: Math.floor(offset / limit) + 1,
    ...(after !== undefined && { after }),
  };
}
