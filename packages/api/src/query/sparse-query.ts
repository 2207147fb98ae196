import Joi from 'joi';

/**
 * A query-string rule that validates a request against a joi object schema key by key, visiting
 * only the keys the request has (and those with defaults). Joi's object type visits every key it
 * declares, and an index route declares one to three per field of its resource (47 for
 * delegates): nearly a tenth of what a small request costs. The answers are the object schema's own: the same
 * values, defaults and messages, the first error in the order the schema declares its keys, an
 * unknown key after the known ones.
 */
export class SparseQuerySchema {
  #parts: SplitSchema | undefined;

  constructor(readonly schema: Joi.ObjectSchema) {}

  /**
   * Split on the first request, not when the route is made: the API makes some forty index
   * routes at start, and splitting them all cost the node's start 0.2 to 0.7 s before it
   * could answer anything.
   */
  #split(): SplitSchema {
    return (this.#parts ??= splitSchema(this.schema));
  }

  validate(value: unknown): { value: unknown; error?: Joi.ValidationError | undefined } {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return this.schema.validate(value);
    }
    const given = value as Record<string, unknown>;
    const { keys, defaults: withDefaults } = this.#split();
    // No prototype: a query's names are looked up as own keys only.
    const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [key, keySchema] of keys) {
      if (!Object.hasOwn(given, key)) continue;
      const checked = keySchema.validate({ [key]: given[key] });
      if (checked.error) return { value: given, error: checked.error };
      const validated = (checked.value as Record<string, unknown>)[key];
      if (validated !== undefined) result[key] = validated;
    }
    // Rare and refused: the whole schema words it. The request itself is checked, not a copy of
    // the unknown key: a copy made by assignment would turn `__proto__` into a prototype.
    if (Object.keys(given).some((key) => !keys.has(key))) return this.schema.validate(given);
    const defaults = withDefaults.validate({}).value as Record<string, unknown>;
    for (const [key, fallback] of Object.entries(defaults)) {
      if (!Object.hasOwn(result, key) && !Object.hasOwn(given, key)) result[key] = fallback;
    }
    return { value: result };
  }
}

interface SplitSchema {
  /** Each declared key as a one-key object, so that a message labels the value as before. */
  readonly keys: ReadonlyMap<string, Joi.ObjectSchema>;
  /** The keys that have a default, for the keys a request leaves out. */
  readonly defaults: Joi.ObjectSchema;
}

function splitSchema(schema: Joi.ObjectSchema): SplitSchema {
  const described = schema.describe() as {
    keys?: Record<string, { flags?: { default?: unknown } }>;
  };
  const keys = new Map<string, Joi.ObjectSchema>();
  const withDefaults: Record<string, Joi.Schema> = {};
  for (const [key, description] of Object.entries(described.keys ?? {})) {
    const child = schema.extract([key]) as Joi.Schema;
    keys.set(key, Joi.object({ [key]: child }));
    if (description.flags?.default !== undefined) withDefaults[key] = child;
  }
  return { keys, defaults: Joi.object(withDefaults) };
}

/** A route's query rule as hapi takes a function, with the object schema it checks, for docs. */
export type QueryRule = ((value: unknown) => Promise<unknown>) & {
  readonly schema: Joi.ObjectSchema;
};

/** The hapi query rule that checks `schema` key by key (see SparseQuerySchema). */
export function sparseQueryRule(schema: Joi.ObjectSchema): QueryRule {
  const sparse = new SparseQuerySchema(schema);
  const rule = async (value: unknown): Promise<unknown> => {
    const { value: validated, error } = sparse.validate(value);
    if (error) throw error;
    return validated;
  };
  return Object.assign(rule, { schema });
}

/** The joi object schema of a route's query rule, whether it is joi's own or a sparse one. */
export function querySchemaOf(rule: unknown): Joi.ObjectSchema | undefined {
  if (typeof rule === 'function' && Joi.isSchema((rule as Partial<QueryRule>).schema)) {
    return (rule as QueryRule).schema;
  }
  return Joi.isSchema(rule) ? (rule as Joi.ObjectSchema) : undefined;
}
