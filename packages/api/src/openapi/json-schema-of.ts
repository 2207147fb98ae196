import type { Schema } from 'joi';
import joiToJson from 'joi-to-json';

// The package is CommonJS exporting the function itself; its typings describe an ES module and
// type the schema as joi's class rather than an instance.
const parse = joiToJson as unknown as (schema: Schema, mode: 'open-api' | 'json') => unknown;

/** A joi schema as JSON Schema (`json`) or OpenAPI 3's dialect of it (`open-api`). */
export function jsonSchemaOf(schema: Schema, mode: 'open-api' | 'json'): unknown {
  return parse(schema, mode);
}
