import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseEnv } from 'dotenv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultAppFile, networksDirectory } from '../networks.js';
import { runKernel } from '../testing/run-kernel.js';
import { publishConfig } from './publish.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-publish-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const readJson = async (file: string) => JSON.parse(await readFile(join(dir, file), 'utf8'));

describe('kernel config:publish', () => {
  it("writes the network's defaults and never overwrites an existing file", async () => {
    const first = await publishConfig({ network: 'testnet', configDir: dir });
    expect(first.written).toEqual(
      expect.arrayContaining(['app.json', '.env', 'delegates.json', 'peers.json']),
    );
    // testnet ships its own app.json (one node may forge alone); other networks use the root one.
    expect(await readJson('app.json')).toEqual(
      JSON.parse(await readFile(defaultAppFile('testnet'), 'utf8')),
    );
    expect(defaultAppFile('testnet')).toBe(join(networksDirectory, 'testnet', 'app.json'));
    expect(first.written).toEqual(expect.arrayContaining(['crypto/genesisBlock.json']));

    await writeFile(join(dir, 'peers.json'), '{"list":[{"ip":"10.0.0.1","port":4000}]}');
    const second = await publishConfig({ network: 'testnet', configDir: dir });
    expect(second.written).toEqual([]);
    expect(second.skipped).toContain('peers.json');
    expect(await readJson('peers.json')).toEqual({ list: [{ ip: '10.0.0.1', port: 4000 }] });
  });

  it('--reset backs up and re-applies delegate secrets, plugin options and environment', async () => {
    await publishConfig({ network: 'testnet', configDir: dir });
    const defaults = await readJson('app.json');
    const operatorApp = structuredClone(defaults);
    operatorApp.relay.plugins.push({ package: './plugins/metrics.mjs', options: { port: 9100 } });
    await writeFile(join(dir, 'app.json'), JSON.stringify(operatorApp));
    await writeFile(
      join(dir, 'delegates.json'),
      JSON.stringify({ secrets: ['one two three', 'four five six'] }),
    );
    await writeFile(
      join(dir, '.env'),
      'CORE_DB_HOST=db.internal\nCORE_DB_PASSWORD="p@ss word#1"\n',
    );
    await writeFile(join(dir, 'peers.json'), '{"list":[{"ip":"10.0.0.1","port":4000}]}');

    const node = runKernel(['config:publish', '--network', 'testnet', '--config', dir, '--reset']);
    expect((await node.exited()).code).toBe(0);

    expect((await readJson('delegates.json')).secrets).toEqual(['one two three', 'four five six']);
    const app = await readJson('app.json');
    expect(app.relay.plugins).toContainEqual({
      package: './plugins/metrics.mjs',
      options: { port: 9100 },
    });
    const env = parseEnv(await readFile(join(dir, '.env')));
    expect(env).toMatchObject({ CORE_DB_HOST: 'db.internal', CORE_DB_PASSWORD: 'p@ss word#1' });
    // Files that hold no operator settings are reset to the defaults.
    expect(await readJson('peers.json')).toEqual(
      JSON.parse(await readFile(join(networksDirectory, 'testnet', 'peers.json'), 'utf8')),
    );

    const out = node.stdout();
    expect(out).toContain('re-applied delegates.json: 2 secret(s)');
    expect(out).toContain('re-applied app.json: plugin ./plugins/metrics.mjs in relay');
    expect(out).toContain('re-applied .env: CORE_DB_HOST, CORE_DB_PASSWORD');
    const backup = /backup of the previous settings: (.+)/.exec(out)?.[1] as string;
    expect(JSON.parse(await readFile(join(backup, 'delegates.json'), 'utf8')).secrets).toHaveLength(
      2,
    );
    expect(existsSync(join(backup, '.env'))).toBe(true);
    expect(existsSync(join(backup, 'app.json'))).toBe(true);
  });

  it('--reset keeps the comments of .env and reports only settings that differ from the defaults', async () => {
    await publishConfig({ network: 'testnet', configDir: dir });
    const defaultEnv = await readFile(join(networksDirectory, 'testnet', '.env'), 'utf8');

    const untouched = await publishConfig({ network: 'testnet', configDir: dir, reset: true });
    expect(untouched.kept).toEqual([]);
    expect(await readFile(join(dir, '.env'), 'utf8')).toBe(defaultEnv);

    await writeFile(join(dir, '.env'), `${defaultEnv}CORE_API_PORT=5003\n`);
    const app = await readJson('app.json');
    app.core.plugins.find((entry: { package: string }) => entry.package === '@lni/api').options = {
      cache: { enabled: false },
    };
    await writeFile(join(dir, 'app.json'), JSON.stringify(app));
    const changed = await publishConfig({ network: 'testnet', configDir: dir, reset: true });
    expect(changed.kept).toEqual(['app.json: options of @lni/api in core', '.env: CORE_API_PORT']);
    const env = await readFile(join(dir, '.env'), 'utf8');
    expect(env).toBe(`${defaultEnv}CORE_API_PORT=5003\n`);
    expect(env).toMatch(/^# Environment of the node/);
  });

  it('--reset keeps the options an operator changed on a default plugin', async () => {
    await publishConfig({ network: 'testnet', configDir: dir });
    await writeFile(
      join(dir, 'app.json'),
      JSON.stringify({
        core: { plugins: [{ package: './plugins/custom.mjs', options: { level: 2 } }] },
      }),
    );
    const result = await publishConfig({ network: 'testnet', configDir: dir, reset: true });
    expect(result.kept).toContain('app.json: plugin ./plugins/custom.mjs in core');
    expect((await readJson('app.json')).core.plugins).toContainEqual({
      package: './plugins/custom.mjs',
      options: { level: 2 },
    });
  });

  it("publishes the api mode, its database read-only, and --reset keeps an operator's upstream", async () => {
    await publishConfig({ network: 'testnet', configDir: dir });
    const api = (await readJson('app.json')).api.plugins as { package: string; options: object }[];
    expect(api.map((entry) => entry.package)).toEqual([
      '@lni/database',
      '@lni/sql-ledger',
      '@lni/api',
    ]);
    expect(api[0]?.options).toEqual({ readOnly: true });
    api[2] = { package: '@lni/api', options: { upstream: ['http://10.0.0.5:4003'] } };
    await writeFile(join(dir, 'app.json'), JSON.stringify({ api: { plugins: api } }));
    const result = await publishConfig({ network: 'testnet', configDir: dir, reset: true });
    expect(result.kept).toContain('app.json: options of @lni/api in api');
    expect((await readJson('app.json')).api.plugins[2]).toEqual(api[2]);
  });

  it('stops before writing anything when a file to keep is broken', async () => {
    await publishConfig({ network: 'testnet', configDir: dir });
    await writeFile(join(dir, 'delegates.json'), '{"secrets": [');
    await expect(
      publishConfig({ network: 'testnet', configDir: dir, reset: true }),
    ).rejects.toThrow(`${join(dir, 'delegates.json')}`);
    expect(await readFile(join(dir, 'delegates.json'), 'utf8')).toBe('{"secrets": [');
  });

  it('refuses an unknown network, naming the known ones', async () => {
    const node = runKernel(['config:publish', '--network', 'moonnet', '--config', dir]);
    expect((await node.exited()).code).toBe(1);
    expect(node.stderr()).toBe("error: unknown network 'moonnet' (known: testnet)\n");
  });
});
