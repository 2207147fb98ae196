import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { keysFromPassphrase } from '@lni/crypto';
import { encryptBip38 } from '@lni/forger';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { publishConfig } from '../support/loopback-peers.js';

// Configuration mistakes as an operator makes them, on the published testnet configuration:
// each stops `kernel start` with one line naming the file, the key and the reason, exit code 1,
// before anything is written to the data directory.

let root: string;
let config: string;
let data: string;
let running: KernelProcess | undefined;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lni-configuration-'));
  config = join(root, 'config');
  data = join(root, 'data');
  await publishConfig(config);
});
afterEach(async () => {
  running?.child.kill('SIGKILL');
  await running?.exited();
  running = undefined;
  await rm(data, { recursive: true, force: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const start = (mode: string, env: NodeJS.ProcessEnv = {}, extra: string[] = []) => {
  running = runKernel(['start', '--mode', mode, '--config', config, '--data', data, ...extra], env);
  return running;
};

/** Runs `kernel start` to its end and returns its one line of stderr. */
async function refusal(mode: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const node = start(mode, env);
  const { code } = await node.exited();
  const lines = node.stderr().trim().split('\n');
  expect({ code, lines: lines.length }, node.stderr()).toEqual({ code: 1, lines: 1 });
  return lines[0] as string;
}

type AppJson = Record<string, { plugins: { package: string; options?: object }[] }>;

async function editApp(edit: (app: AppJson) => void): Promise<() => Promise<void>> {
  const file = join(config, 'app.json');
  const original = await readFile(file, 'utf8');
  const app = JSON.parse(original) as AppJson;
  edit(app);
  await writeFile(file, JSON.stringify(app, null, 2));
  return () => writeFile(file, original);
}

/** A relay running only the API: it starts in a second and needs no database. */
const apiOnly = (options: object) => (app: AppJson) => {
  app.relay = { plugins: [{ package: '@lni/api', options }] };
};

describe('app.json, .env and the environment', () => {
  it('listens on the API port app.json sets: the published .env pins no port', async () => {
    const port = await freePort();
    const restore = await editApp(apiOnly({ port }));
    try {
      const node = start('relay', { CORE_LOG_LEVEL: 'info' });
      await node.waitFor('Node started');
      const response = await fetch(`http://127.0.0.1:${port}/api/node/configuration`);
      // A route of a plugin this node does not run: a clear 503, and no error with a stack.
      expect(response.status).toBe(503);
      expect(((await response.json()) as { message: string }).message).toContain(
        'does not run the state plugin',
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(node.stdout()).not.toContain('"level":50');
      expect(node.stdout()).not.toContain('replaced by the environment');
    } finally {
      await restore();
    }
  });

  it('says when the environment replaces an option app.json sets', async () => {
    const [inApp, inEnv] = [await freePort(), await freePort()];
    const restore = await editApp(apiOnly({ port: inApp }));
    try {
      const node = start('relay', { CORE_API_PORT: String(inEnv), CORE_LOG_LEVEL: 'info' });
      await node.waitFor('Node started');
      const record = node
        .stdout()
        .split('\n')
        .find((line) => line.includes('Option set in app.json is replaced by the environment'));
      expect(JSON.parse(record ?? '{}')).toMatchObject({
        plugin: 'api',
        option: 'port',
        variable: 'CORE_API_PORT',
      });
      expect((await fetch(`http://127.0.0.1:${inEnv}/api/node/status`)).status).toBe(503);
    } finally {
      await restore();
    }
  });

  it('validates an app.json value although the environment replaces it', async () => {
    const restore = await editApp(apiOnly({ port: 'abc' }));
    try {
      expect(await refusal('relay', { CORE_API_PORT: String(await freePort()) })).toBe(
        `error: mode 'relay', plugin 'api', option 'port' (in app.json; CORE_API_PORT overrides it for now): "port" must be a number`,
      );
      expect(existsSync(data)).toBe(false);
    } finally {
      await restore();
    }
  });
});

describe('the API and P2P ports', () => {
  it('a port another program holds stops start-up in one line naming the variable, before anything', async () => {
    const holder = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '0.0.0.0', resolve));
    try {
      expect(await refusal('relay', { CORE_API_PORT: String(port) })).toBe(
        `error: mode 'relay', plugin 'api', option 'port' (set by CORE_API_PORT): port ${port} on 0.0.0.0 is already in use; free it or choose another port`,
      );
      expect(existsSync(data)).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('the API and P2P on one port stop start-up in one line naming both variables', async () => {
    const port = String(await freePort());
    expect(await refusal('relay', { CORE_API_PORT: port, CORE_P2P_PORT: port })).toBe(
      `error: mode 'relay': plugin 'p2p', option 'port' (set by CORE_P2P_PORT) and plugin 'api', option 'port' (set by CORE_API_PORT) are both port ${port}: give each its own port`,
    );
    expect(existsSync(data)).toBe(false);
  });
});

describe('the network', () => {
  it('refuses an unknown network before writing anything, naming the known ones', async () => {
    const home = join(root, 'home');
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
    };
    running = runKernel(['start', '--mode', 'core', '--network', 'testnett'], env);
    expect((await running.exited()).code).toBe(1);
    expect(running.stderr()).toBe(
      `error: unknown network 'testnett' (known: testnet); a network of your own runs from its files in ${join(home, '.config', 'lni', 'testnett', 'crypto')} (see "Joining an existing network" in the README)\n`,
    );
    expect(existsSync(home)).toBe(false);
  });
});

describe('delegates.json', () => {
  const file = () => join(config, 'delegates.json');
  let published: string;
  beforeAll(async () => {
    published = await readFile(file(), 'utf8');
  });
  afterEach(async () => {
    await writeFile(file(), published);
  });

  it('is checked with the rest of the configuration: file, key and reason, nothing written', async () => {
    const bip38 = await encryptBip38(keysFromPassphrase('a forging delegate').privateKey, 'right');
    const cases: [string, NodeJS.ProcessEnv, string][] = [
      ['{ "secrets": [', {}, 'not valid JSON'],
      ['{ "secrets": "one passphrase" }', {}, `key 'secrets': "secrets" must be an array`],
      ['{ "secret": ["a passphrase"] }', {}, `key 'secret': "secret" is not allowed`],
      [
        '{ "secrets": ["same words", "other words", "same words"] }',
        {},
        `key 'secrets[2]': the same delegate secret as secrets[0]`,
      ],
      [JSON.stringify({ bip38 }), {}, 'holds a BIP38 secret but no password was given'],
      [
        JSON.stringify({ bip38 }),
        { CORE_FORGER_PASSWORD: 'wrong' },
        `key 'bip38': wrong password for the BIP38 secret`,
      ],
    ];
    for (const [content, env, reason] of cases) {
      await writeFile(file(), content);
      const line = await refusal('core', env);
      expect(line).toMatch(/^error: mode 'core', plugin 'forger': /);
      expect(line).toContain(`${file()}`);
      expect(line).toContain(reason);
      expect(existsSync(data)).toBe(false);
    }
  }, 120_000);

  it('warns at boot about a secret of no registered delegate, in one line, once the chain is known', async () => {
    const { secrets } = JSON.parse(published) as { secrets: string[] };
    await writeFile(file(), JSON.stringify({ secrets: [...secrets, 'a passphrase of nobody'] }));
    const stranger = keysFromPassphrase('a passphrase of nobody').publicKey.toString('hex');
    const p2pPort = await freePort();
    const node = start('core', {
      CORE_API_PORT: String(await freePort()),
      CORE_P2P_PORT: String(p2pPort),
      CORE_FORGER_RELAYS: `127.0.0.1:${p2pPort}`,
      CORE_LOG_LEVEL: 'info',
    });
    await node.waitFor('"msg":"Node started"', 180_000);
    const records = node
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const forger = records.filter((record) => record.plugin === 'forger');
    const started = forger.find((record) => record.msg === 'Forger started');
    expect(started).toMatchObject({
      delegates: 52,
      names: 'genesis_1, genesis_2, genesis_3 and 49 more',
    });
    expect(JSON.stringify(started).length).toBeLessThan(400);
    const warnings = forger.filter(
      (record) => record.level === 40 && String(record.msg).includes('delegates.json'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      msg: 'Secrets in delegates.json belong to no delegate registered up to this height: they forge nothing',
      secrets: 1,
      publicKeys: stranger,
    });
  }, 240_000);
});

describe('the data directory', () => {
  it('is a file: one line naming it, exit code 1', async () => {
    await writeFile(data, 'not a directory');
    expect(await refusal('relay')).toBe(
      `error: data directory ${data} cannot be used: ${data} is a file, not a directory`,
    );
  });

  it('cannot be written by the user the node runs as: one line naming it, exit code 1', async () => {
    // Root may write anywhere: as root, the node runs as `nobody` (uid 65534) instead.
    const asRoot = process.getuid?.() === 0;
    const locked = join(root, 'locked');
    await mkdir(locked, { mode: 0o555 });
    await chmod(locked, 0o555);
    await chmod(root, 0o755);
    const target = join(locked, 'data');
    running = runKernel(
      ['start', '--mode', 'relay', '--config', config, '--data', target],
      {},
      asRoot ? { uid: 65534, gid: 65534 } : {},
    );
    expect((await running.exited()).code).toBe(1);
    expect(running.stderr()).toMatch(
      new RegExp(
        `^error: data directory ${target} cannot be used: permission denied to user \\S+\\n$`,
      ),
    );
    expect(await readdir(locked)).toEqual([]);
  });
});
