import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { processIsAlive } from './owner.js';

export const ARK_CORE_VERSION = '3.9.1';

/** The private package (package.json, lockfile, ngrok stub) that pins ARK Core. */
const PACKAGE_DIR = fileURLToPath(new URL('../ark/', import.meta.url));
const PACKAGE_FILES = [
  'package.json',
  'package-lock.json',
  '.npmrc',
  'ngrok-stub/package.json',
  'ngrok-stub/index.js',
];
const STAMP = '.lni-install-stamp';

/** Where ARK Core is installed: `LNI_ARK_HOME`, else the user's cache directory. */
export function arkHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LNI_ARK_HOME) return env.LNI_ARK_HOME;
  const cache = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(cache, 'lni', `ark-core-${ARK_CORE_VERSION}`);
}

/** Paths inside a complete installation. */
export interface ArkInstallation {
  readonly home: string;
  /** ARK's CLI (`ark core:run`, `relay:run`, `forger:run`, …). */
  readonly bin: string;
  /** ARK's own testnet configuration (app.json, .env, delegates.json, peers.json). */
  readonly testnetConfig: string;
  /** ARK testnet's crypto files (network, milestones, genesis block, exceptions). */
  readonly testnetCrypto: string;
}

export function installationAt(home: string): ArkInstallation {
  const modules = join(home, 'node_modules');
  return {
    home,
    bin: join(modules, '@arkecosystem', 'core', 'bin', 'run'),
    testnetConfig: join(modules, '@arkecosystem', 'core', 'bin', 'config', 'testnet'),
    testnetCrypto: join(modules, '@arkecosystem', 'crypto-networks', 'dist', 'testnet'),
  };
}

/** Hash of everything that decides what gets installed; a different hash means reinstall. */
export async function installStamp(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of PACKAGE_FILES) {
    hash
      .update(`${file}\0`)
      .update(await readFile(join(PACKAGE_DIR, file)))
      .update('\0');
  }
  return `ark-core-${ARK_CORE_VERSION} node-${process.versions.modules} ${hash.digest('hex')}`;
}

/** The installation at `home` when it is complete and matches the lockfile, else undefined. */
export async function completeInstallation(home = arkHome()): Promise<ArkInstallation | undefined> {
  const stampFile = join(home, STAMP);
  if (!existsSync(stampFile)) return undefined;
  const [found, wanted] = [(await readFile(stampFile, 'utf8')).trim(), await installStamp()];
  return found === wanted ? installationAt(home) : undefined;
}

export interface InstallReport {
  readonly installation: ArkInstallation;
  /** False when a complete installation was already there. */
  readonly installed: boolean;
  readonly ms: number;
}

/**
 * Installs ARK Core into `home` unless a complete installation with the same stamp is there.
 * npm runs in a sibling directory that replaces `home` only once it is complete and its native
 * modules load, so an interrupted install never looks complete. A lock directory keeps two
 * test runs from installing at once.
 */
export async function ensureArkInstalled(
  home = arkHome(),
  log: (line: string) => void = (line) => console.log(line),
): Promise<InstallReport> {
  const started = Date.now();
  const ready = await completeInstallation(home);
  if (ready) return { installation: ready, installed: false, ms: Date.now() - started };

  const release = await lock(`${home}.lock`, log);
  try {
    const raced = await completeInstallation(home);
    if (raced) return { installation: raced, installed: false, ms: Date.now() - started };
    const stamp = await installStamp();
    const partial = `${home}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await mkdir(join(partial, 'ngrok-stub'), { recursive: true });
    for (const file of PACKAGE_FILES) await cp(join(PACKAGE_DIR, file), join(partial, file));
    log(`Installing ARK Core ${ARK_CORE_VERSION} into ${home} (npm ci, several minutes)`);
    await run('npm', ['ci', '--no-audit', '--no-fund'], partial);
    await run(process.execPath, ['-e', NATIVE_CHECK], partial);
    await writeFile(join(partial, STAMP), `${stamp}\n`);
    await rm(home, { recursive: true, force: true });
    await rename(partial, home);
    return { installation: installationAt(home), installed: true, ms: Date.now() - started };
  } finally {
    await release();
  }
}

// ARK needs these native builds: bcrypto's native backend (2 = native), SQLite for its
// transaction pool, nsfw for its config watcher.
const NATIVE_CHECK = `
if (require('bcrypto').native !== 2) throw new Error('bcrypto runs without its native backend');
new (require('better-sqlite3'))(':memory:').close();
require('nsfw');
`;

function run(file: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${file} ${args.join(' ')} in ${cwd} failed (${signal ?? code})`)),
    );
  });
}

/** mkdir is atomic: whoever creates the directory holds the lock; a dead holder's lock is taken. */
async function lock(path: string, log: (line: string) => void): Promise<() => Promise<void>> {
  await mkdir(dirname(path), { recursive: true });
  let announced = false;
  for (;;) {
    try {
      await mkdir(path);
      await writeFile(join(path, 'pid'), String(process.pid));
      return () => rm(path, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(await readFile(join(path, 'pid'), 'utf8').catch(() => '0'));
    if (holder > 0 && !processIsAlive(holder)) {
      await rm(path, { recursive: true, force: true });
      continue;
    }
    if (!announced) log(`Waiting for process ${holder || '?'} to finish installing ARK Core`);
    announced = true;
    await delay(2_000);
  }
}
