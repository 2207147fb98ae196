import type { ServerRoute } from '@hapi/hapi';
import {
  Milestones,
  TransactionType,
  TransactionTypeGroup,
  transactionSchema,
  transactionTypes,
  type NetworkConfig,
} from '@lni/crypto';
import type { LedgerReader } from '@lni/state/contracts';
import { jsonSchemaOf } from '../openapi/json-schema-of.js';

type JsonSchema = { [key: string]: unknown };

const CORE_GROUP = TransactionTypeGroup.Core;
const HTLC_TYPES: ReadonlySet<number> = new Set([
  TransactionType.HtlcLock,
  TransactionType.HtlcClaim,
  TransactionType.HtlcRefund,
]);

export interface TransactionSchemaSources {
  readonly ledger: () => LedgerReader;
  readonly network: () => NetworkConfig;
}

/**
 * GET /api/transactions/schemas: as ARK 3.0, the JSON schema properties of each transaction
 * type this node accepts at the last block's height, by type group and type. They are made from
 * the joi rules that validate transactions, so they cannot drift from them.
 */
export function transactionSchemaRoutes(sources: TransactionSchemaSources): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/api/transactions/schemas',
      options: {
        description: 'JSON schemas of the transaction types accepted now, by type group and type',
        tags: ['api', 'transactions'],
        handler: () => {
          const network = sources.network();
          const height = sources.ledger().lastBlock()?.height ?? 1;
          const milestone = new Milestones(network.milestones).at(height);
          const schemas: Record<string, JsonSchema> = {};
          for (const { typeGroup, type } of transactionTypes()) {
            if (typeGroup !== CORE_GROUP) continue;
            if (HTLC_TYPES.has(type) && milestone.htlcEnabled !== true) continue;
            const schema = transactionSchema(CORE_GROUP, type, milestone, network.network);
            if (schema === undefined) continue;
            const json = jsonSchemaOf(schema, 'json') as { properties?: JsonSchema };
            schemas[type] = propertiesOf(json);
          }
          return { data: { [CORE_GROUP]: schemas } };
        },
      },
    },
  ];
}

/** The fields a type has (those it forbids are left out), integers beyond 2^53 as strings. */
function propertiesOf(json: { properties?: JsonSchema }): JsonSchema {
  const properties: [string, unknown][] = [];
  for (const [name, property] of Object.entries(json.properties ?? {})) {
    const schema = property as JsonSchema;
    if (schema.not !== undefined) continue;
    properties.push([name, wireShape(schema)]);
  }
  return Object.fromEntries(properties);
}

/** Bigint rules (format `bigint`) travel as decimal strings; nested objects are walked. */
function wireShape(schema: JsonSchema): JsonSchema {
  if (schema.format === 'bigint') {
    return { ...schema, type: 'string', pattern: '^[0-9]+$' };
  }
  if (schema.type === 'object' && schema.properties !== undefined) {
    return { ...schema, properties: propertiesOf(schema) };
  }
  if (schema.type === 'array' && typeof schema.items === 'object' && schema.items !== null) {
    return { ...schema, items: wireShape(schema.items as JsonSchema) };
  }
  return schema;
}
