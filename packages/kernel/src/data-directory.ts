import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import { ConfigError } from './errors.js';
import type { NodePaths } from './paths.js';

/**
 * Creates the data directory and its log directory, or stops start-up with one line naming the
 * directory and why it cannot be used, before a plugin tries to write there and fails deeper.
 */
export function prepareDataDirectory(paths: NodePaths): void {
  ensureWritableDirectory(paths.data, 'data directory');
  ensureWritableDirectory(dirname(paths.log), 'log directory');
}

/** Creates `directory` if needed; a ConfigError naming it and the reason if it is not writable. */
export function ensureWritableDirectory(directory: string, label: string): void {
  try {
    mkdirSync(directory, { recursive: true });
    accessSync(directory, constants.W_OK);
  } catch (error) {
    throw new ConfigError(`${label} ${directory} cannot be used: ${reasonOf(error, directory)}`, {
      cause: error,
    });
  }
}

function reasonOf(error: unknown, directory: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') {
    return `permission denied to user ${userInfo().username}`;
  }
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    const file = firstNonDirectory(directory);
    if (file !== undefined) return `${file} is a file, not a directory`;
  }
  if (code === 'EROFS') return `${directory} is on a read-only file system`;
  return (error as Error).message;
}

/** The first part of `path`, from the root down, that exists and is not a directory. */
function firstNonDirectory(path: string): string | undefined {
  const prefixes: string[] = [];
  for (let current = path; dirname(current) !== current; current = dirname(current)) {
    prefixes.unshift(current);
  }
  for (const prefix of prefixes) {
    const stats = statSync(prefix, { throwIfNoEntry: false });
    if (stats === undefined) return undefined;
    if (!stats.isDirectory()) return prefix;
  }
  return undefined;
}
