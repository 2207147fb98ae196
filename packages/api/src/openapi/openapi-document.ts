import type { RequestRoute } from '@hapi/hapi';
import Joi from 'joi';
import { querySchemaOf } from '../query/sparse-query.js';
import { jsonSchemaOf } from './json-schema-of.js';

type JsonSchema = {
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly description?: string;
  readonly not?: unknown;
} & Readonly<Record<string, unknown>>;

/**
 * An OpenAPI 3 document of the server's routes, built from the joi schemas hapi validates
 * with, so the documentation cannot drift from what the server accepts.
 */
export function openApiDocument(
  routes: readonly RequestRoute[],
  info: { readonly title: string; readonly version: string },
): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    const validate = route.settings.validate ?? {};
    const operation: Record<string, unknown> = {
      summary: route.settings.description ?? '',
      tags: route.settings.tags ?? [route.path.split('/')[2] ?? 'api'],
      parameters: [
        ...parametersOf(validate.params, 'path'),
        ...parametersOf(validate.query, 'query'),
      ],
      responses: {
        200: { description: 'success' },
        404: { description: 'no such resource' },
        422: { description: 'a parameter is unknown or its value invalid; the message names it' },
        429: { description: 'rate limit exceeded; Retry-After says when to try again' },
      },
    };
    if (Joi.isSchema(validate.payload)) {
      operation.requestBody = {
        required: true,
        content: {
          'application/json': { schema: jsonSchemaOf(validate.payload, 'open-api') },
        },
      };
    }
    (paths[route.path] ??= {})[route.method] = operation;
  }
  return { openapi: '3.0.3', info, paths };
}

function parametersOf(rule: unknown, location: 'path' | 'query'): object[] {
  const schema = querySchemaOf(rule);
  if (schema === undefined) return [];
  const json = jsonSchemaOf(schema, 'open-api') as JsonSchema;
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {})
    .filter(([, property]) => property.not === undefined)
    .map(([name, property]) => ({
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(property.description ? { description: property.description } : {}),
      schema: property,
    }));
}
