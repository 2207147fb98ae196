import {
  generateNetwork,
  keysFromPassphrase,
  Milestones,
  SlotClock,
  type BlockHeader,
  type GeneratedNetwork,
} from '@lni/crypto';
import type { Plugin } from '@lni/kernel';
import { runTestCommand } from '@lni/kernel/testing';
import type { ForgingRound } from '@lni/crypto';
import { MemoryChain, startTestNode, type TestNode } from '@lni/p2p/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgerPlugin } from '../plugin.js';
import { writeForgerConfig } from '../__fixtures__/forger-config.js';

let network: GeneratedNetwork;
let directory: string;
let relay: TestNode;
const key = (index: number) =>
  keysFromPassphrase(network.secrets[index] as string).publicKey.toString('hex');
/** The relay's current slot: genesis_2's, one block time after genesis_1's. */
const SLOT = 800;

beforeAll(async () => {
  network = generateNetwork({ name: 'testnet', delegates: 3, pubKeyHash: 23 });
  directory = await mkdtemp(join(tmpdir(), 'lni-forger-commands-'));
  // genesis_1 (its slot in this round is past) and genesis_3 (its slot is next).
  await writeForgerConfig(join(directory, 'config'), network, [
    network.secrets[0],
    network.secrets[2],
  ] as string[]);
  const genesis = new MemoryChain({ nethash: network.network.nethash }).status().header;
  relay = await startTestNode({
    chain: new MemoryChain({ nethash: network.network.nethash }),
    forging: {
      currentRound: (): ForgingRound<BlockHeader> => ({
        round: 1,
        reward: 0n,
        slotTimestamp: SLOT,
        canForge: true,
        delegates: [0, 1, 2].map((index) => ({
          publicKey: key(index),
          address: `address-${index}`,
          username: `genesis_${index + 1}`,
          balance: '0',
          voteBalance: '0',
          nonce: '0',
          rank: index + 1,
        })),
        currentForger: key(1),
        nextForger: key(2),
        lastBlock: { ...genesis, id: network.genesisBlock.id as string },
      }),
      transactionsForForging: () => [],
      poolSize: () => 0,
    },
  });
});
afterAll(async () => {
  await relay.stop();
  await rm(directory, { recursive: true, force: true });
});

const paths = () => ({
  config: join(directory, 'config'),
  data: join(directory, 'data'),
  log: join(directory, 'node.log'),
});
const run = (command: string, args: Record<string, string> = {}) =>
  runTestCommand({
    plugins: [
      {
        plugin: forgerPlugin as Plugin<object>,
        options: { relays: [`127.0.0.1:${relay.port}`], requestTimeoutMs: 2_000 },
      },
    ],
    plugin: 'forger',
    command,
    args,
    mode: 'forger',
    paths: paths(),
  });

describe('kernel forger:status, forger:export and forger:import', () => {
  it('prints per delegate its rank, next slot, last forged, missed this round and the guard', async () => {
    const clock = new SlotClock(new Milestones(network.milestones));
    const { output } = await run('status');
    const text = output.join('\n');
    expect(text).toContain(`genesis_1 (${key(0)})`);
    expect(text).toContain('registered: yes, active, rank 1');
    // genesis_1 stands before the current forger: its next slot is two block times away.
    expect(text).toContain(
      `next slot: slot ${SLOT + 16} at ${new Date(clock.unixMs(SLOT + 16)).toISOString()}`,
    );
    expect(text).toContain(`next slot: slot ${SLOT + 8}`);
    expect(output.filter((line) => line.includes('missed this round'))).toEqual([
      '  missed this round: yes',
      '  missed this round: not yet',
    ]);
    expect(text).toContain('last forged: nothing signed on this machine');
  });

  it('imports a record from another machine, never going backwards, and status shows it', async () => {
    const moved = join(directory, 'moved.json');
    await writeFile(
      moved,
      JSON.stringify({ [key(0)]: { height: 2, slot: SLOT - 8, id: 'block-2' } }),
    );
    expect((await run('import', { file: moved })).output).toEqual([
      `imported ${moved}: 1 delegate(s) moved forward, 0 already at or above it here`,
    ]);
    await writeFile(moved, JSON.stringify({ [key(0)]: { height: 1, slot: 0, id: 'older' } }));
    expect((await run('import', { file: moved })).output[0]).toMatch(
      /0 delegate\(s\) moved forward, 1 already at or above it here/,
    );

    const text = (await run('status')).output.join('\n');
    expect(text).toContain(`last forged: height 2 (block block-2, slot ${SLOT - 8})`);
    expect(text).toContain('missed this round: no');
    expect(text).toContain(`never signs at or below height 2 or in slot ${SLOT - 8} again`);

    const exported = join(directory, 'exported.json');
    expect((await run('export', { file: exported })).output).toEqual([
      `wrote the signing record of 1 delegate(s) to ${exported}`,
    ]);
  });

  it('refuses a file that is not there or not a record, in one line naming it', async () => {
    await expect(run('import', { file: join(directory, 'missing.json') })).rejects.toThrow(
      /missing\.json: no such file to import/,
    );
    const bad = join(directory, 'bad.json');
    await writeFile(bad, '{"not a key": {}}');
    await expect(run('import', { file: bad })).rejects.toThrow(/"not a key" is not a public key/);
  });
});
