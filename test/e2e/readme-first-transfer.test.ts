import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { addressFromPassphrase } from '@lni/crypto';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';

const repository = fileURLToPath(new URL('../..', import.meta.url));
const apiReadme = join(repository, 'packages/api/README.md');

/** The first fenced js block of a README section, as written. */
async function snippet(heading: string): Promise<string> {
  const text = await readFile(apiReadme, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`packages/api/README.md has no section "${heading}"`);
  const end = text.indexOf('\n## ', start + heading.length + 2);
  const section = text.slice(start, end < 0 ? undefined : end);
  const code = /^```js\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (code === undefined) throw new Error(`"${heading}" lost its js block`);
  return code;
}

/** Runs ES module code as `node first-transfer.mjs` would, resolving packages from the repository. */
function runSnippet(code: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--input-type=module', '--eval', code], {
    cwd: repository,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

// "Send your first transfer" of the API README, run as written against a core node of the
// published testnet that forges alone: built and signed with @arkecosystem/crypto, sent, and
// followed until a block holds it.
describe("the API README's first transfer against a running node", () => {
  let root: string;
  let node: KernelProcess;
  let api: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-first-transfer-'));
    const config = join(root, 'config');
    const publish = runKernel(['config:publish', '--config', config]);
    expect((await publish.exited()).code).toBe(0);
    const apiPort = await freePort();
    api = `http://127.0.0.1:${apiPort}/api`;
    node = runKernel(
      ['start', '--mode', 'core', '--config', config, '--data', join(root, 'data')],
      {
        CORE_API_PORT: String(apiPort),
        CORE_P2P_PORT: String(await freePort()),
        CORE_LOG_LEVEL: 'info',
      },
    );
  });
  afterAll(async () => {
    node?.child.kill('SIGTERM');
    await node?.exited();
    await rm(root, { recursive: true, force: true });
  });

  it('sends a transfer signed with @arkecosystem/crypto and sees it confirmed', async () => {
    const code = await snippet('## Send your first transfer');
    // Forging has begun: the chain is past its genesis block.
    await eventually(
      async () => {
        const response = await fetch(`${api}/blockchain`).catch(() => undefined);
        if (!response?.ok) return undefined;
        const { data } = (await response.json()) as { data: { block: { height: number } } };
        return data.block.height >= 2 ? data : undefined;
      },
      180_000,
      'a forged block',
    );
    const network = JSON.parse(
      await readFile(join(repository, 'packages/cli/networks/testnet/crypto/network.json'), 'utf8'),
    ) as { pubKeyHash: number };
    const { secrets } = JSON.parse(
      await readFile(join(repository, 'packages/cli/networks/testnet/delegates.json'), 'utf8'),
    ) as { secrets: string[] };
    const recipient = addressFromPassphrase('first transfer recipient', network.pubKeyHash);

    const run = await runSnippet(code, {
      LNI_API: api,
      PASSPHRASE: secrets[0] as string,
      RECIPIENT: recipient,
    });
    expect(run, run.stderr).toMatchObject({ code: 0 });
    const [answer, confirmed] = run.stdout.trim().split('\n');
    expect(answer).toMatch(/^200 \{"data":\{"accept":\["\w{64}"\],"broadcast":\["\w{64}"\]/);
    expect(confirmed).toMatch(/^confirmed in block \w+ confirmations \d+$/);

    const wallet = (await (await fetch(`${api}/wallets/${recipient}`)).json()) as {
      data: { balance: string };
    };
    expect(wallet.data.balance).toBe('100000000');
  }, 240_000);
});
