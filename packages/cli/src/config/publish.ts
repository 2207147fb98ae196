import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultAppFile, networksDirectory, unknownNetworkError } from '../networks.js';
import { backupConfig, type Backup } from './backup.js';
import { reapplyBackup } from './reapply.js';

export interface PublishResult {
  readonly written: string[];
  readonly skipped: string[];
  readonly backup?: Backup;
  /** What --reset carried over from the previous configuration, one line each. */
  readonly kept: string[];
}

/**
 * Writes a network's default configuration into the config directory. Without `reset` an
 * existing file is never overwritten; with it the delegate secrets, plugin options and
 * environment are backed up, the defaults written, and those settings re-applied.
 */
export async function publishConfig(input: {
  readonly network: string;
  readonly configDir: string;
  readonly reset?: boolean;
  readonly now?: Date;
}): Promise<PublishResult> {
  const source = join(networksDirectory, input.network);
  if (!existsSync(source)) {
    throw unknownNetworkError(input.network);
  }
  await mkdir(input.configDir, { recursive: true });
  const backup = input.reset
    ? await backupConfig(input.configDir, input.now ?? new Date())
    : undefined;

  const written: string[] = [];
  const skipped: string[] = [];
  const files = [
    ['app.json', defaultAppFile(input.network)],
    ...(await listFiles(source))
      .filter((file) => file !== 'app.json')
      .map((file) => [file, join(source, file)]),
  ] as const;
  for (const [relative, from] of files) {
    const target = join(input.configDir, relative);
    if (existsSync(target) && !input.reset) {
      skipped.push(relative);
      continue;
    }
    await mkdir(join(target, '..'), { recursive: true });
    await copyFile(from, target);
    written.push(relative);
  }

  const kept = backup ? await reapplyBackup(input.configDir, backup) : [];
  return { written, skipped, kept, ...(backup ? { backup } : {}) };
}

async function listFiles(directory: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(directory, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(directory, relative)));
    else files.push(relative);
  }
  return files.sort();
}
