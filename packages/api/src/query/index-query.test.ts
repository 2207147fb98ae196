import { describe, expect, it } from 'vitest';
import { indexQuerySchema, toResourceQuery, type IndexQueryDefinition } from './index-query.js';

const delegates: IndexQueryDefinition = {
  catalog: {
    username: { type: 'string' },
    votes: { type: 'amount' },
    rank: { type: 'integer' },
    isResigned: { type: 'boolean' },
    'blocks.produced': { type: 'integer' },
    'production.approval': { type: 'number' },
  },
  defaultOrder: [{ field: 'rank', direction: 'asc' }],
  refused: { isDelegate: 'is not a field: a wallet is a delegate when attributes.delegate exists' },
};
const schema = indexQuerySchema(delegates);

function parse(query: Record<string, string>) {
  const { error, value } = schema.validate(query, { abortEarly: true });
  if (error) throw new Error(error.message);
  return toResourceQuery(value, delegates);
}

describe('index query parameters', () => {
  it('turns the spec example shapes into typed conditions', () => {
    expect(parse({ isResigned: 'false' }).conditions).toEqual([
      { kind: 'in', field: 'isResigned', values: [false] },
    ]);
    expect(parse({ 'blocks.produced': '12' }).conditions).toEqual([
      { kind: 'in', field: 'blocks.produced', values: [12] },
    ]);
    expect(parse({ username: 'genesis_1,genesis_2', isResigned: 'true' }).conditions).toEqual([
      { kind: 'in', field: 'username', values: ['genesis_1', 'genesis_2'] },
      { kind: 'in', field: 'isResigned', values: [true] },
    ]);
    expect(parse({ orderBy: 'rank:desc' }).orderBy).toEqual([{ field: 'rank', direction: 'desc' }]);
  });

  it('reads amounts beyond 2^53 exactly, and ranges on numeric fields', () => {
    const query = parse({
      'votes.from': '9007199254740993',
      'votes.to': '123456789012345678901234567890',
    });
    expect(query.conditions).toEqual([
      {
        kind: 'range',
        field: 'votes',
        from: 9007199254740993n,
        to: 123456789012345678901234567890n,
      },
    ]);
  });

  it('orders by several keys and defaults to the resource order', () => {
    expect(parse({ orderBy: 'votes:desc,username:asc' }).orderBy).toEqual([
      { field: 'votes', direction: 'desc' },
      { field: 'username', direction: 'asc' },
    ]);
    expect(parse({}).orderBy).toEqual([{ field: 'rank', direction: 'asc' }]);
  });

  it('computes the page from page and limit, or from offset', () => {
    expect(parse({ page: '3', limit: '20' })).toMatchObject({ offset: 40, limit: 20, page: 3 });
    expect(parse({ offset: '45', limit: '20' })).toMatchObject({ offset: 45, page: 3 });
    expect(parse({})).toMatchObject({ offset: 0, limit: 100, page: 1 });
  });

  it.each([
    [{ rank: 'first' }, `"rank" must be an integer, not 'first'`],
    [{ votes: '-5' }, `"votes" must be a non-negative integer, not '-5'`],
    [{ isResigned: 'yes' }, `"isResigned" must be true or false, not 'yes'`],
    [{ 'username.from': 'a' }, '"username.from" is not a field of this resource'],
    [{ colour: 'red' }, '"colour" is not a field of this resource'],
    [{ orderBy: 'colour:asc' }, `"orderBy" cannot order by 'colour': not a field of this resource`],
    [{ orderBy: 'rank:up' }, `"orderBy" direction of 'rank' must be asc or desc`],
    [{ limit: '101' }, '"limit" must be less than or equal to 100'],
    [{ page: '0' }, '"page" must be greater than or equal to 1'],
    [
      { isDelegate: 'true' },
      '"isDelegate" is not a field: a wallet is a delegate when attributes.delegate exists',
    ],
  ])('rejects %j naming the parameter', (query, text) => {
    expect(() => parse(query as Record<string, string>)).toThrow(text);
  });

  // Catalogs are plain objects: a name of Object.prototype's must not pass for a field.
  it.each([
    [{ orderBy: '__proto__,votes:asc' }, `"orderBy" cannot order by '__proto__'`],
    [{ orderBy: 'rank:asc,constructor:desc' }, `"orderBy" cannot order by 'constructor'`],
    [{ orderBy: 'toString' }, `"orderBy" cannot order by 'toString'`],
    [{ orderBy: 'hasOwnProperty:asc' }, `"orderBy" cannot order by 'hasOwnProperty'`],
    [{ orderBy: 'blocks.__proto__:asc' }, `"orderBy" cannot order by 'blocks.__proto__'`],
    [{ constructor: 'x' }, '"constructor" is not a field of this resource'],
    [{ prototype: 'x' }, '"prototype" is not a field of this resource'],
    [{ 'blocks.constructor.prototype': '1' }, '"blocks.constructor.prototype" is not a field'],
  ])('refuses the inherited name in %j', (query, text) => {
    expect(() => parse(query as Record<string, string>)).toThrow(text);
  });
});
