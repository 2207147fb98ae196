import {
  addressFromPassphrase,
  delegateRegistration,
  delegateResignation,
  keysFromPassphrase,
  transfer,
  vote,
} from '@lni/crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_COMMITTED_CHANNEL } from '../../contracts/index.js';
import { WALLET_COLUMNS } from '../wallet-row.js';
import {
  ALICE,
  PUB_KEY_HASH,
  secret,
  tableNode,
  TOKEN,
  txOptions,
  type TableNode,
} from './__fixtures__/table-node.js';

const skip = process.env.LNI_TEST_POSTGRES === 'unavailable';
const publicKeyOf = (n: number) => keysFromPassphrase(secret(n)).publicKey.toString('hex');
const newcomer = (n: number) => `wallet table newcomer ${n}`;

/**
 * A reverted block leaves in memory (and so in the table) what a replay never makes: the
 * wallets it created, empty, the public key of a wallet whose only transaction it took back,
 * and `missedBlocks: 0` on a delegate whose missed slot it took back. Comparisons with a
 * rebuilt node leave those out.
 */
function asRebuilt(snapshot: TableNode extends { snapshot(): infer S } ? S : never) {
  return {
    ...snapshot,
    wallets: snapshot.wallets
      .filter(
        (w) =>
          w.balance !== 0n ||
          w.nonce !== 0n ||
          w.publicKey !== undefined ||
          Object.keys(w.attributes).length > 0,
      )
      .map((w) => {
        if (w.nonce === 0n && w.publicKey !== undefined && !w.attributes.delegate) {
          const { publicKey: _kept, ...rest } = w;
          w = rest;
        }
        const delegate = w.attributes.delegate;
        if (delegate?.missedBlocks !== 0) return w;
        const { missedBlocks: _zero, ...rest } = delegate;
        return { ...w, attributes: { ...w.attributes, delegate: rest } };
      }),
  };
}

describe.skipIf(skip)('the wallets table kept with each block', () => {
  let node: TableNode;
  let listener: pg.Client;
  const notified: unknown[] = [];

  /** The table holds exactly the wallets in memory, and the head names the tip. */
  async function expectTableEqualsMemory(): Promise<void> {
    const table = await node.tableWallets();
    const memory = [...node.wallets().all()];
    expect(table.size).toBe(memory.length);
    for (const wallet of memory) expect(table.get(wallet.address)).toEqual(wallet);
    const tip = node.running().cradle.blockProcessor.lastBlock;
    const head = (await node.sql.query('SELECT height, block_id, supply::text FROM state_head'))
      .rows[0];
    expect(head).toEqual({
      height: String(tip?.height),
      block_id: tip?.id,
      supply: String(node.running().cradle.ledger.supply()),
    });
  }

  const nextNonce = (passphrase: string) =>
    (node.wallets().get(addressFromPassphrase(passphrase, PUB_KEY_HASH))?.nonce ?? 0n) + 1n;

  const aliceSends = (recipient: string, amount: bigint) =>
    transfer(txOptions)
      .recipientId(recipient)
      .amount(amount)
      .nonce(nextNonce(ALICE))
      .sign(keysFromPassphrase(ALICE))
      .build();

  beforeAll(async () => {
    node = await tableNode();
    await node.start();
    // An api node's side: a session of its own, listening on the channel.
    listener = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: node.sql.database });
    await listener.connect();
    listener.on('notification', (message) => notified.push(JSON.parse(message.payload ?? '')));
    await listener.query(`LISTEN ${BLOCK_COMMITTED_CHANNEL}`);
  }, 60_000);
  afterAll(async () => {
    await listener?.end();
    await node?.dispose();
  });

  it('has exactly the columns of the row shape the api nodes read', async () => {
    const { rows } = await node.sql.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'wallets'`,
    );
    const expected = new Set([
      ...WALLET_COLUMNS.map(({ column }) => column),
      'address',
      'public_key',
      'balance',
      'nonce',
      'attributes',
      'updated_height',
    ]);
    expect(new Set(rows.map((row) => row.column_name as string))).toEqual(expected);
  });

  it('holds every wallet after the genesis block and after each block, votes, registrations, resignations and missed slots included', async () => {
    await expectTableEqualsMemory();
    await node.forge([aliceSends(addressFromPassphrase(newcomer(1), PUB_KEY_HASH), 50n * TOKEN)]);
    await expectTableEqualsMemory();
    await node.forge([
      vote(txOptions)
        .vote(publicKeyOf(1))
        .nonce(nextNonce(ALICE))
        .sign(keysFromPassphrase(ALICE))
        .build(),
    ]);
    await node.forge(
      [
        delegateRegistration(txOptions)
          .username('newcomer')
          .nonce(1)
          .sign(keysFromPassphrase(newcomer(1)))
          .build(),
      ],
      2,
    );
    await expectTableEqualsMemory();
    await node.forge([
      delegateResignation(txOptions)
        .nonce(nextNonce(secret(7)))
        .sign(keysFromPassphrase(secret(7)))
        .build(),
    ]);
    for (let i = 0; i < 8; i++) {
      await node.forge([aliceSends(addressFromPassphrase(newcomer(i + 2), PUB_KEY_HASH), TOKEN)]);
    }
    await expectTableEqualsMemory();
    const { rows } = await node.sql.query('SELECT count(*)::int AS n FROM missed_slots');
    expect(rows[0].n).toBeGreaterThan(0);
  }, 60_000);

  it('notifies each committed block with its height and id', async () => {
    const tip = node.running().cradle.blockProcessor.lastBlock;
    await expect.poll(() => notified.at(-1)).toEqual({ height: tip?.height, id: tip?.id });
    // All but the genesis block, applied before the listener listened.
    expect(notified.length).toBe((tip?.height as number) - 1);
  });

  it('restores the changed wallets and the head on a revert, removing wallets the reverted blocks made', async () => {
    const height = node.running().cradle.blockProcessor.lastBlock?.height as number;
    await node.running().cradle.blockProcessor.revertTo(height - 6);
    const tip = node.running().cradle.blockProcessor.lastBlock;
    await expectTableEqualsMemory();
    await expect.poll(() => notified.at(-1)).toEqual({ height: tip?.height, id: tip?.id });
    // A fork: other blocks at the reverted heights.
    for (let i = 0; i < 3; i++) {
      await node.forge([aliceSends(addressFromPassphrase(newcomer(i + 20), PUB_KEY_HASH), TOKEN)]);
    }
    await expectTableEqualsMemory();
  }, 60_000);

  it('loads at restart the state a rebuild makes, wallet by wallet, also after reverts', async () => {
    const live = node.snapshot();
    await node.stop();
    const loaded = await node.start();
    expect(loaded.logs.filter((r) => r.msg === 'State loaded')).toHaveLength(1);
    expect(loaded.logs.some((r) => r.msg === 'Wallet table not usable, rebuilding')).toBe(false);
    expect(node.snapshot()).toEqual(live);
    await node.stop();
    await node.start({ walletTable: { load: false } });
    expect(asRebuilt(node.snapshot())).toEqual(asRebuilt(live));
    await expectTableEqualsMemory();

    // Reverting across rounds after a load (elections, missed slots, supply taken from storage).
    await node.stop();
    await node.start();
    await node.running().cradle.blockProcessor.revertTo(live.last.height - 7);
    const revertedAfterLoad = node.snapshot();
    await expectTableEqualsMemory();
    await node.stop();
    const rebuilt = await node.start({ walletTable: { load: false } });
    expect(rebuilt.logs.some((r) => r.msg === 'State rebuilt')).toBe(true);
    expect(asRebuilt(node.snapshot())).toEqual(asRebuilt(revertedAfterLoad));
    await expectTableEqualsMemory();
  }, 60_000);

  const restartAfter = async (statement: string) => {
    await node.stop();
    await node.sql.query(statement);
    const kernel = await node.start();
    return kernel.logs.filter((r) => r.msg === 'Wallet table not usable, rebuilding');
  };

  it('detects a balance changed by hand, says why in one line, and rebuilds the table', async () => {
    const before = node.snapshot();
    const alice = addressFromPassphrase(ALICE, PUB_KEY_HASH);
    const lines = await restartAfter(
      `UPDATE wallets SET balance = balance + 1, attributes = attributes WHERE address = '${alice}'`,
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]?.reason).toMatch(
      /^wallets hold \d+, the supply less the genesis amount is \d+$/,
    );
    expect(node.snapshot()).toEqual(before);
    await expectTableEqualsMemory();
  }, 60_000);

  it('detects a changed attribute by the state hash', async () => {
    const before = node.snapshot();
    const lines = await restartAfter(
      `UPDATE wallets SET attributes = jsonb_set(attributes, '{delegate,producedBlocks}', '999')
       WHERE delegate_username IS NOT NULL AND address = (SELECT min(address) FROM wallets WHERE delegate_username IS NOT NULL)`,
    );
    expect(lines.map((r) => r.reason)).toEqual(['state hash differs']);
    expect(node.snapshot()).toEqual(before);
  }, 60_000);

  it('rebuilds when a row does not read as a wallet', async () => {
    const before = node.snapshot();
    const lines = await restartAfter(
      `UPDATE wallets SET attributes = attributes || '{"htlc": {"lockedBalance": "many"}}'
       WHERE address = (SELECT min(address) FROM wallets)`,
    );
    expect(lines.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^a row does not read as a wallet: /),
    ]);
    expect(node.snapshot()).toEqual(before);
  }, 60_000);

  it('rebuilds when the head does not name the last block', async () => {
    const before = node.snapshot();
    const lines = await restartAfter('UPDATE state_head SET height = height - 1');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.reason).toMatch(/^head at height/);
    expect(node.snapshot()).toEqual(before);
    await expectTableEqualsMemory();
  }, 60_000);

  it("rebuilds and writes the whole table on a previous release's database (no rows)", async () => {
    const before = node.snapshot();
    const lines = await restartAfter('DELETE FROM state_head; DELETE FROM wallets');
    expect(lines.map((r) => r.reason)).toEqual(['no head row (a table never filled)']);
    expect(node.running().logs.some((r) => r.msg === 'Wallet table written')).toBe(true);
    expect(node.snapshot()).toEqual(before);
    await expectTableEqualsMemory();
    // And the next start loads it.
    await node.stop();
    const kernel = await node.start();
    expect(kernel.logs.some((r) => r.msg === 'State loaded')).toBe(true);
    expect(node.snapshot()).toEqual(before);
  }, 60_000);
  it('a loaded start still refuses a chain that fails the integrity check, which runs during the load', async () => {
    await node.stop();
    const [block] = (await node.sql.query('SELECT previous_block FROM blocks WHERE height = 3'))
      .rows as { previous_block: string }[];
    await node.sql.query('UPDATE blocks SET previous_block = NULL WHERE height = 3');
    try {
      // The table names the last block and checks out; the chain below it does not.
      await expect(node.start()).rejects.toThrow(
        /Stored chain is inconsistent at height 3: previous block id does not match/,
      );
    } finally {
      await node.sql.query('UPDATE blocks SET previous_block = $1 WHERE height = 3', [
        block?.previous_block,
      ]);
    }
    const kernel = await node.start();
    expect(kernel.logs.some((r) => r.msg === 'State loaded')).toBe(true);
    expect(kernel.logs).toContainEqual(expect.objectContaining({ msg: 'Stored chain verified' }));
  }, 60_000);
});
