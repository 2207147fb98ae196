import { addressFromPassphrase, keysFromPassphrase, transfer } from '@lni/crypto';
import { createLogger, runPluginCommand } from '@lni/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALICE,
  PUB_KEY_HASH,
  tableNode,
  TOKEN,
  txOptions,
  type TableNode,
} from '../wallets/table/__fixtures__/table-node.js';

const skip = process.env.LNI_TEST_POSTGRES === 'unavailable';

describe.skipIf(skip)('kernel state:verify', () => {
  let node: TableNode;
  /** What the command printed, and its error: the CLI prints both and exits 1 on an error. */
  const verify = async () => {
    const output: string[] = [];
    const error = await runPluginCommand({
      plugins: node.plugins(),
      plugin: 'state',
      command: 'verify',
      args: {},
      flags: {},
      print: (line) => output.push(line),
      mode: 'core',
      network: 'wallettable',
      paths: node.paths,
      env: {},
      logger: createLogger({ level: 'fatal' }),
    }).then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    return { output, error };
  };

  beforeAll(async () => {
    node = await tableNode();
    await node.start();
    for (let nonce = 1n; nonce <= 6n; nonce++) {
      const recipient = addressFromPassphrase(`verify recipient ${nonce}`, PUB_KEY_HASH);
      await node.forge([
        transfer(txOptions)
          .recipientId(recipient)
          .amount(nonce * TOKEN)
          .nonce(nonce)
          .sign(keysFromPassphrase(ALICE))
          .build(),
      ]);
    }
  }, 60_000);
  afterAll(() => node?.dispose());

  it('finds no difference in a table the node wrote, while the node runs', async () => {
    const { output, error } = await verify();
    expect(error).toBeUndefined();
    expect(output.at(-1)).toMatch(
      /^height 7: \d+ wallets in the table, \d+ replayed, 0 difference/,
    );
  }, 60_000);

  it('names the wallet and the field after a balance changed by SQL, and fails', async () => {
    await node.stop();
    const recipient = addressFromPassphrase('verify recipient 3', PUB_KEY_HASH);
    await node.sql.query(`UPDATE wallets SET balance = balance + 5 WHERE address = $1`, [
      recipient,
    ]);
    const { output, error } = await verify();
    expect(output).toContain(`${recipient} balance: table "300000005", replay "300000000"`);
    expect(output.at(-1)).toMatch(/, 1 difference\(s\)$/);
    expect(error?.message).toMatch(/differs from the chain at height 7 \(1 field/);
  }, 60_000);
});
