import { parse } from 'dotenv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Environment } from '../plugin.js';

/**
 * The environment the node runs with: the `.env` of the config directory underneath the real
 * environment, which always wins. This is the only place the kernel reads `process.env`.
 */
export function loadEnvironment(
  configDir: string,
  processEnv: NodeJS.ProcessEnv = process.env,
): Environment {
  const file = join(configDir, '.env');
  let fromFile: Record<string, string> = {};
  try {
    fromFile = parse(readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return Object.freeze({ ...fromFile, ...processEnv });
}
