import { InvalidArgumentError, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KernelError, resolvePaths } from '@lni/kernel';
import { generateNetwork, type GeneratedNetwork } from '@lni/crypto';
import { setEnvironment } from '../config/env-file.js';
import { generatedAppConfig } from '../config/generated-app.js';
import type { CommandResult } from '../program.js';

interface GenerateFlags {
  readonly network: string;
  readonly delegates: number;
  readonly config?: string;
  readonly pubKeyHash: number;
  readonly wif?: number;
  readonly blocktime: number;
  readonly activeDelegates?: number;
  readonly premine?: bigint;
  readonly epoch?: string;
  readonly token?: string;
  readonly symbol?: string;
  readonly p2pPort?: number;
  readonly apiPort?: number;
  readonly force?: boolean;
}

/** The files network:generate owns; an existing one is only replaced with --force. */
export const GENERATED_FILES = [
  'crypto/network.json',
  'crypto/milestones.json',
  'crypto/genesisBlock.json',
  'delegates.json',
] as const;

export function registerNetworkGenerate(program: Command, result: CommandResult): void {
  program
    .command('network:generate')
    .description(
      'generate a new network (crypto/*.json with a signed genesis block, delegates.json) into the config directory',
    )
    .requiredOption('--network <name>', 'name of the new network')
    .requiredOption('--delegates <n>', 'delegates registered in the genesis block', integer(1))
    .option('--config <dir>', 'configuration directory (default: per user, per network)')
    .option('--pub-key-hash <n>', 'address version byte', integer(0, 255), 23)
    .option('--wif <n>', 'WIF version byte (default 186)', integer(0, 255))
    .option('--blocktime <s>', 'seconds per slot', integer(1), 8)
    .option(
      '--active-delegates <n>',
      'forging delegates per round (default: --delegates)',
      integer(1),
    )
    .option('--premine <amount>', 'arktoshi split evenly among the delegates', amount)
    .option('--epoch <iso-date>', 'start of slot 0 (default: today 00:00 UTC)')
    .option('--token <name>', 'token name (default: the network name in capitals)')
    .option('--symbol <text>', 'token symbol (default: the token name)')
    .option(
      '--p2p-port <port>',
      "CORE_P2P_PORT written to .env (default: none, app.json's port applies)",
      integer(1, 65535),
    )
    .option(
      '--api-port <port>',
      "CORE_API_PORT written to .env (default: none, app.json's port applies)",
      integer(1, 65535),
    )
    .option('--force', 'replace files of an earlier generation')
    .action(async (flags: GenerateFlags) => {
      const configDir = resolvePaths(flags.network, process.env, flags).config;
      const written = await writeNetwork(configDir, flags);
      process.stdout.write(
        `Generated network ${flags.network} with ${flags.delegates} delegates in ${configDir}\n` +
          `  written: ${written.join(', ')}\n` +
          (written.includes('app.json')
            ? "  app.json lets this node's forger forge without peers (allowSingleNode): every delegate's secret is in delegates.json\n"
            : ''),
      );
      result.code = 0;
    });
}

async function writeNetwork(configDir: string, flags: GenerateFlags): Promise<string[]> {
  const existing = GENERATED_FILES.filter((file) => existsSync(join(configDir, file)));
  if (existing.length > 0 && !flags.force) {
    throw new KernelError(
      'ERR_CONFIG_EXISTS',
      `${configDir} already holds ${existing.join(', ')}; use --force to replace them`,
    );
  }
  const generated: GeneratedNetwork = generateNetwork({
    name: flags.network,
    delegates: flags.delegates,
    pubKeyHash: flags.pubKeyHash,
    blocktime: flags.blocktime,
    ...(flags.wif !== undefined && { wif: flags.wif }),
    ...(flags.activeDelegates !== undefined && { activeDelegates: flags.activeDelegates }),
    ...(flags.premine !== undefined && { premine: flags.premine }),
    ...(flags.epoch !== undefined && { epoch: flags.epoch }),
    ...(flags.token !== undefined && { token: flags.token }),
    ...(flags.symbol !== undefined && { symbol: flags.symbol }),
  });
  await mkdir(join(configDir, 'crypto'), { recursive: true });
  const contents: Record<(typeof GENERATED_FILES)[number], unknown> = {
    'crypto/network.json': generated.network,
    'crypto/milestones.json': generated.milestones,
    'crypto/genesisBlock.json': generated.genesisBlock,
    'delegates.json': { secrets: generated.secrets },
  };
  for (const file of GENERATED_FILES) {
    await writeFile(join(configDir, file), `${JSON.stringify(contents[file], null, 2)}\n`, {
      // delegates.json holds private secrets.
      mode: file === 'delegates.json' ? 0o600 : 0o644,
    });
  }
  const written: string[] = [...GENERATED_FILES];
  // An operator's own app.json stays: it is theirs, not part of a generation.
  if (!existsSync(join(configDir, 'app.json'))) {
    await writeFile(
      join(configDir, 'app.json'),
      `${JSON.stringify(await generatedAppConfig(), null, 2)}\n`,
    );
    written.push('app.json');
  }
  // Only ports asked for: a port pinned in .env would silently beat the one app.json sets.
  const ports = {
    ...(flags.p2pPort !== undefined && { CORE_P2P_PORT: String(flags.p2pPort) }),
    ...(flags.apiPort !== undefined && { CORE_API_PORT: String(flags.apiPort) }),
  };
  if (Object.keys(ports).length === 0) return written;
  await setEnvironment(join(configDir, '.env'), ports);
  return [...written, '.env'];
}

function integer(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    }
    return parsed;
  };
}

function amount(value: string): bigint {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of arktoshi');
  return BigInt(value);
}
