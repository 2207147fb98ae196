import { parse as parseEnv } from 'dotenv';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, parseAppConfig, type AppConfig } from '@lni/kernel';

/** The operator's settings saved before a reset, already parsed so a broken file stops it early. */
export interface Backup {
  readonly directory: string;
  readonly files: readonly string[];
  readonly delegates?: Record<string, unknown>;
  readonly app?: AppConfig;
  readonly env?: Record<string, string>;
}

const BACKED_UP = ['delegates.json', 'app.json', '.env'] as const;

export async function backupConfig(configDir: string, now: Date): Promise<Backup> {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const directory = join(configDir, 'backups', stamp);
  const present = BACKED_UP.filter((file) => existsSync(join(configDir, file)));
  const contents = new Map<string, string>();
  for (const file of present) contents.set(file, await readFile(join(configDir, file), 'utf8'));

  const delegatesText = contents.get('delegates.json');
  const appText = contents.get('app.json');
  const envText = contents.get('.env');
  const backup: Backup = {
    directory,
    files: present,
    ...(delegatesText !== undefined
      ? { delegates: parseJsonObject(delegatesText, join(configDir, 'delegates.json')) }
      : {}),
    ...(appText !== undefined ? { app: parseAppConfig(appText, join(configDir, 'app.json')) } : {}),
    ...(envText !== undefined ? { env: parseEnv(envText) } : {}),
  };

  await mkdir(directory, { recursive: true });
  for (const file of present) await copyFile(join(configDir, file), join(directory, file));
  return backup;
}

function parseJsonObject(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: ${(error as Error).message}`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`${file}: must hold a JSON object`);
  }
  return value as Record<string, unknown>;
}
