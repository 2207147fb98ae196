import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockIndex } from '../routes/blocks.js';
import { delegateIndex } from '../routes/delegates.js';
import { transactionIndex } from '../routes/transactions.js';
import { walletIndex } from '../routes/wallets.js';
import { indexQuerySchema, type IndexQueryDefinition } from './index-query.js';
import { querySchemaOf, sparseQueryRule } from './sparse-query.js';

const VALUES = ['1', '0', '42', '-5', 'x', '', '1000', '3.5', 'true', 'false', 'a,b', 'delegate_3'];
const VALUES_FOR_ORDER = ['rank:desc', 'balance:asc', 'height', 'nope:asc', 'votes:sideways'];

/** The rule's answer as a client sees it: the validated query, or the 422's message. */
async function answer(rule: (value: unknown) => Promise<unknown>, query: object) {
  try {
    return { value: await rule(query) };
  } catch (error) {
    return { message: (error as Error).message };
  }
}

describe.each([
  ['delegates', delegateIndex],
  ['wallets', walletIndex],
  ['transactions', transactionIndex],
  ['blocks', blockIndex],
] as [string, IndexQueryDefinition][])('the %s query rule', (_name, definition) => {
  const schema = indexQuerySchema(definition);
  const rule = sparseQueryRule(schema);
  const keys = Object.keys((schema.describe() as { keys: object }).keys);

  it('answers every query string as the whole joi object schema does', async () => {
    const key = fc.oneof(
      fc.constantFrom(...keys),
      fc.constantFrom('nope', 'votes.sideways', '__proto__', 'constructor', 'toString'),
    );
    const value = fc.oneof(
      fc.constantFrom(...VALUES, ...VALUES_FOR_ORDER),
      fc.array(fc.constantFrom(...VALUES), { minLength: 2, maxLength: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.dictionary(key, value, { maxKeys: 5 }), async (query) => {
        const whole = schema.validate(query);
        const expected = whole.error ? { message: whole.error.message } : { value: whole.value };
        expect(await answer(rule, query)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the whole schema for the documentation', () => {
    expect(querySchemaOf(rule)).toBe(schema);
    expect(querySchemaOf(schema)).toBe(schema);
  });
});
