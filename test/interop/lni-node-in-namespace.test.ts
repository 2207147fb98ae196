import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interopSkipReason } from './support/skip.js';
import { useInteropNetwork } from './support/use-interop-network.js';

// startLniNode ahead of LNI's ARK dialect: LNI relays start inside namespaces on ARK testnet's
// own files and answer their API, on either database.

const skipReason = await interopSkipReason();
const title = "LNI relays in namespaces on ARK testnet's files";

describe.skipIf(skipReason !== undefined)(
  skipReason ? `${title} (skipped: ${skipReason})` : title,
  () => {
    const run = useInteropNetwork();

    const arkTestnet = async (file: string): Promise<{ id: string; nethash: string }> =>
      JSON.parse(await readFile(join(run.network.ark.testnetCrypto, file), 'utf8')) as {
        id: string;
        nethash: string;
      };

    for (const database of ['postgres', 'embedded'] as const) {
      it(`starts with its ${database} database and answers with ARK testnet's genesis block`, async () => {
        const node = await run.network.startLniNode({
          name: database === 'postgres' ? 'pg' : 'pglite',
          mode: 'relay',
          database,
        });
        const [genesis, network] = [
          await arkTestnet('genesisBlock.json'),
          await arkTestnet('network.json'),
        ];
        const last = await node.api.get('/blocks/last');
        expect(last.data).toMatchObject({ height: 1, id: genesis.id });
        const configuration = await node.api.get('/node/configuration');
        expect(configuration.data.nethash).toBe(network.nethash);
        expect(node.ip).toMatch(/^10\.77\.0\.\d+$/);
        expect(await node.log()).toContain(
          database === 'postgres' ? '"embedded":false' : 'embedded PGlite',
        );
      });
    }
  },
);
