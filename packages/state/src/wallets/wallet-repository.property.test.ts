import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WalletError } from './errors.js';
import { compareAddresses, WALLET_FIELDS, type FieldValue, type WalletField } from './fields.js';
import { DELEGATE_VIEW_FIELDS } from './query/delegate-fields.js';
import type {
  WalletCondition,
  WalletCursor,
  WalletOrdering,
  WalletQuery,
  WalletScope,
} from './query/wallet-query.js';
import { WalletQueryEngine } from './query/wallet-query-engine.js';
import type { Wallet } from './wallet.js';
import type { WalletChange } from './wallet-change.js';
import { WalletRepository, type Checkpoint } from './wallet-repository.js';

// Small domains so that values collide and ties, missing values and duplicates all happen.
const ADDRESSES = Array.from({ length: 12 }, (_, i) => `A${String.fromCharCode(97 + i)}addr`);
const KEYS = Array.from({ length: 8 }, (_, i) => `02${String(i).repeat(64)}`);
const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'eps'];

const address = fc.constantFrom(...ADDRESSES);
const amount = fc.bigInt({ min: -3n, max: 6n });
const small = fc.integer({ min: 0, max: 4 });

const change: fc.Arbitrary<WalletChange> = fc.oneof(
  fc.record({ balance: amount }),
  fc.record({ nonce: fc.bigInt({ min: 0n, max: 3n }) }),
  fc.record({ publicKey: fc.constantFrom(...KEYS) }),
  fc.record({
    attributes: fc.record({ vote: fc.option(fc.constantFrom(...KEYS), { nil: undefined }) }),
  }),
  fc.record({
    attributes: fc.record({
      secondPublicKey: fc.option(fc.constantFrom(...KEYS), { nil: undefined }),
      multiSignature: fc.option(
        fc.record({
          min: fc.integer({ min: 1, max: 3 }),
          publicKeys: fc.constant([KEYS[0] as string]),
        }),
        { nil: undefined },
      ),
    }),
  }),
  fc.record({
    attributes: fc.record({
      delegate: fc.option(
        fc.record(
          {
            username: fc.constantFrom(...NAMES),
            voteBalance: amount,
            forgedFees: amount,
            forgedRewards: amount,
            producedBlocks: small,
            rank: small,
            resigned: fc.constant(true),
            lastBlock: fc.record({
              id: fc.constantFrom('b1', 'b2'),
              idHex: fc.constantFrom('00000000000000b1', '00000000000000b2'),
              version: fc.constant(0),
              height: small,
              timestamp: small,
              previousBlock: fc.constant('b0'),
              previousBlockHex: fc.constant('00000000000000b0'),
              numberOfTransactions: fc.constant(0),
              totalAmount: fc.constant(0n),
              totalFee: fc.constant(0n),
              reward: amount,
              payloadLength: fc.constant(0),
              payloadHash: fc.constant('00'.repeat(32)),
              generatorPublicKey: fc.constant(`02${'11'.repeat(32)}`),
              blockSignature: fc.constant('30'),
            }),
          },
          {
            requiredKeys: [
              'username',
              'voteBalance',
              'forgedFees',
              'forgedRewards',
              'producedBlocks',
            ],
          },
        ),
        { nil: undefined },
      ),
    }),
  }),
);

type Command =
  | { readonly op: 'update'; readonly address: string; readonly change: WalletChange }
  | { readonly op: 'checkpoint' }
  | { readonly op: 'rollback' }
  | { readonly op: 'release' }
  | { readonly op: 'mirror' };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ op: fc.constant('update' as const), address, change }) },
  { weight: 1, arbitrary: fc.constant({ op: 'checkpoint' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'rollback' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'release' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'mirror' as const }) },
);

const valueOf = (field: WalletField): fc.Arbitrary<FieldValue> => {
  switch (field.type) {
    case 'bigint':
      return amount;
    case 'number':
      return small;
    case 'boolean':
      return fc.boolean();
    case 'string':
      return fc.constantFrom(...ADDRESSES, ...KEYS, ...NAMES, 'b1', 'b2');
  }
};

const condition: fc.Arbitrary<WalletCondition> = fc.constantFrom(...WALLET_FIELDS).chain((field) =>
  field.type === 'bigint' || field.type === 'number'
    ? fc.oneof(
        fc.record({
          kind: fc.constant('in' as const),
          field: fc.constant(field.path),
          values: fc.array(valueOf(field), { minLength: 1, maxLength: 3 }),
        }),
        fc.record(
          {
            kind: fc.constant('range' as const),
            field: fc.constant(field.path),
            from: valueOf(field),
            to: valueOf(field),
          },
          { requiredKeys: ['kind', 'field'] },
        ),
      )
    : fc.record({
        kind: fc.constant('in' as const),
        field: fc.constant(field.path),
        values: fc.array(valueOf(field), { minLength: 1, maxLength: 3 }),
      }),
);

const ordering: fc.Arbitrary<WalletOrdering> = fc.record({
  field: fc.constantFrom(...WALLET_FIELDS.map((field) => field.path)),
  direction: fc.constantFrom('asc' as const, 'desc' as const),
});

const query = fc.record({
  scope: fc.constantFrom<WalletScope>('wallets', 'delegates'),
  conditions: fc.array(condition, { maxLength: 2 }),
  orderBy: fc.array(ordering, { maxLength: 2 }),
  offset: fc.integer({ min: 0, max: 6 }),
  limit: fc.integer({ min: 0, max: 8 }),
});

const FIELD_BY_PATH = new Map(WALLET_FIELDS.map((field) => [field.path, field]));
const VIEW_NAME = new Map(Object.entries(DELEGATE_VIEW_FIELDS).map(([view, path]) => [path, view]));

/** The answer by brute force: filter every wallet, sort them all, slice. */
function scan(wallets: readonly Wallet[], q: QueryCase) {
  const test = (wallet: Wallet, c: WalletCondition): boolean => {
    const value = (FIELD_BY_PATH.get(c.field) as WalletField).read(wallet);
    if (value === undefined) return false;
    if (c.kind === 'in') return c.values.some((v) => v === value);
    return (c.from === undefined || value >= c.from) && (c.to === undefined || value <= c.to);
  };
  const keys = q.orderBy.length > 0 ? q.orderBy : [{ field: 'address', direction: 'asc' as const }];
  const matched = wallets
    .filter((wallet) => q.scope === 'wallets' || wallet.attributes.delegate !== undefined)
    .filter((wallet) => q.conditions.every((c) => test(wallet, c)))
    .sort((a, b) => {
      for (const key of keys) {
        const field = FIELD_BY_PATH.get(key.field) as WalletField;
        const x = field.read(a);
        const y = field.read(b);
        // A missing value is greater than any value.
        const order = x === y ? 0 : x === undefined ? 1 : y === undefined ? -1 : x < y ? -1 : 1;
        if (order !== 0) return key.direction === 'desc' ? -order : order;
      }
      const order = compareAddresses(a.address, b.address);
      return keys[0]?.direction === 'desc' ? -order : order;
    });
  return { results: matched.slice(q.offset, q.offset + q.limit), totalCount: matched.length };
}

type QueryCase = {
  scope: WalletScope;
  conditions: WalletCondition[];
  orderBy: WalletOrdering[];
  offset: number;
  limit: number;
};

/** The delegate endpoint names fields by the delegate view; only those fields can be asked there. */
function asDelegateQuery(q: QueryCase) {
  const rename = (path: string) => VIEW_NAME.get(path);
  if (![...q.conditions, ...q.orderBy].every((x) => rename(x.field) !== undefined))
    return undefined;
  return {
    conditions: q.conditions.map((c) => ({ ...c, field: rename(c.field) as string })),
    orderBy: q.orderBy.map((o) => ({ ...o, field: rename(o.field) as string })),
    offset: q.offset,
    limit: q.limit,
  };
}

const snapshot = (repository: WalletRepository) =>
  [...repository.all()].sort((a, b) => compareAddresses(a.address, b.address));

describe('wallet repository indexes (property)', () => {
  it('keep every index and every query equal to a brute-force scan, and checkpoints restore exactly', () => {
    fc.assert(
      fc.property(
        fc.array(command, { maxLength: 60 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        (commands, queries) => {
          const repository = new WalletRepository();
          const open: { checkpoint: Checkpoint; before: Wallet[] }[] = [];
          for (const cmd of commands) {
            if (cmd.op === 'mirror') continue;
            if (cmd.op === 'checkpoint') {
              open.push({ checkpoint: repository.checkpoint(), before: snapshot(repository) });
            } else if (cmd.op === 'rollback' || cmd.op === 'release') {
              const top = open.pop();
              if (!top) continue;
              if (cmd.op === 'release') repository.release(top.checkpoint);
              else {
                repository.rollback(top.checkpoint);
                expect(snapshot(repository)).toEqual(top.before);
              }
            } else {
              const before = snapshot(repository);
              try {
                repository.update(cmd.address, cmd.change);
              } catch (error) {
                // Refused changes (duplicate key or username, changed public key) leave no trace.
                expect(error).toBeInstanceOf(WalletError);
                expect(snapshot(repository)).toEqual(before);
              }
            }
          }

          const wallets = snapshot(repository);
          for (const field of WALLET_FIELDS) {
            const inIndex = [...repository.index(field).scan(undefined, undefined, false)];
            // An index holds exactly the wallets that have a value for its field.
            const expected = scan(
              wallets.filter((w) => field.read(w) !== undefined),
              {
                scope: 'wallets',
                conditions: [],
                orderBy: [{ field: field.path, direction: 'asc' }],
                offset: 0,
                limit: wallets.length,
              },
            ).results;
            expect(
              inIndex.map((w) => w.address),
              field.path,
            ).toEqual(expected.map((w) => w.address));
          }
          // A bulk load of the same wallets builds the same indexes.
          const loaded = new WalletRepository();
          loaded.load(wallets);
          for (const field of WALLET_FIELDS) {
            const scanOf = (r: WalletRepository) =>
              [...r.index(field).scan(undefined, undefined, false)].map((w) => w.address);
            expect(scanOf(loaded), field.path).toEqual(scanOf(repository));
          }
          for (const w of wallets) {
            if (w.publicKey) expect(repository.byPublicKey(w.publicKey)).toBe(w);
            if (w.attributes.delegate)
              expect(repository.byUsername(w.attributes.delegate.username)).toBe(w);
          }

          for (const strategy of ['cost', 'walk', 'sort'] as const) {
            const engine = new WalletQueryEngine({
              walletRepository: repository,
              queryStrategy: strategy,
            });
            for (const q of queries) {
              const expected = scan(wallets, q);
              const asked = q.scope === 'wallets' ? q : asDelegateQuery(q);
              if (!asked) continue;
              const run = (query: WalletQuery) =>
                q.scope === 'wallets' ? engine.wallets(query) : engine.delegates(query);
              const page = run(asked);
              expect(page.totalCount).toBe(expected.totalCount);
              expect(page.results).toEqual(expected.results);
              if (asked.limit === 0) continue;
              // Walking by cursor from the first page visits every match once, in order.
              const every = scan(wallets, { ...q, offset: 0, limit: wallets.length }).results;
              const walked: Wallet[] = [];
              let next: WalletCursor | undefined;
              for (let pages = 0; pages <= wallets.length; pages += 1) {
                const step = run({ ...asked, offset: 0, ...(next && { after: next }) });
                walked.push(...step.results);
                next = step.next;
                if (next === undefined) break;
              }
              expect(walked).toEqual(every);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('copy to a replica, through the change tracker, exactly the committed state', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 80 }), (commands) => {
        const source = new WalletRepository();
        const replica = new WalletRepository();
        const tracker = source.trackChanges();
        const open: { checkpoint: Checkpoint; before: Wallet[] }[] = [];
        const mirror = () => {
          replica.mirror(tracker.take().map((address) => [address, source.get(address)] as const));
          expect(snapshot(replica)).toEqual(snapshot(source));
          for (const field of WALLET_FIELDS) {
            const scanOf = (r: WalletRepository) =>
              [...r.index(field).scan(undefined, undefined, false)].map((w) => w.address);
            expect(scanOf(replica), field.path).toEqual(scanOf(source));
          }
          for (const wallet of snapshot(source)) {
            if (wallet.publicKey) {
              expect(replica.byPublicKey(wallet.publicKey)?.address).toBe(wallet.address);
            }
            const name = wallet.attributes.delegate?.username;
            if (name) expect(replica.byUsername(name)?.address).toBe(wallet.address);
          }
          expect(replica.delegateCount).toBe(source.delegateCount);
        };
        for (const cmd of commands) {
          if (cmd.op === 'mirror') {
            // The replica copies only between blocks, when no checkpoint is open.
            if (!source.inCheckpoint) mirror();
          } else if (cmd.op === 'checkpoint') {
            open.push({ checkpoint: source.checkpoint(), before: snapshot(source) });
          } else if (cmd.op === 'rollback' || cmd.op === 'release') {
            const top = open.pop();
            if (!top) continue;
            if (cmd.op === 'release') source.release(top.checkpoint);
            else source.rollback(top.checkpoint);
          } else {
            try {
              source.update(cmd.address, cmd.change);
            } catch (error) {
              expect(error).toBeInstanceOf(WalletError);
            }
          }
        }
        while (open.length > 0) source.release((open.pop() as (typeof open)[number]).checkpoint);
        mirror();
      }),
      { numRuns: 300 },
    );
  });
});
