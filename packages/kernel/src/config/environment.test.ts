import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePaths } from '../paths.js';
import { loadEnvironment } from './environment.js';

describe('environment and paths', () => {
  it('loads .env from the config directory without overriding the real environment', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lni-env-'));
    await writeFile(join(dir, '.env'), 'CORE_DB_HOST=db.internal\nCORE_API_PORT=4100\n');
    const env = loadEnvironment(dir, { CORE_API_PORT: '5000', HOME: '/home/op' });
    expect(env).toMatchObject({
      CORE_DB_HOST: 'db.internal',
      CORE_API_PORT: '5000',
      HOME: '/home/op',
    });
    expect(Object.isFrozen(env)).toBe(true);
    await rm(dir, { recursive: true });
  });

  it('works without a .env file', () => {
    expect(loadEnvironment('/nonexistent', { A: '1' })).toEqual({ A: '1' });
  });

  it('puts config and data per network under per-user defaults', () => {
    const paths = resolvePaths('testnet', {});
    expect(paths.config).toMatch(/lni\/testnet$/);
    expect(paths.data).toMatch(/lni\/testnet$/);
    expect(paths.config).not.toBe(paths.data);
    expect(paths.log).toBe(join(paths.data, 'logs', 'node.log'));
  });

  it('flags win over CORE_PATH_* which win over defaults', () => {
    const env = { CORE_PATH_CONFIG: '/srv/config', CORE_PATH_DATA: '/srv/data' };
    expect(resolvePaths('mainnet', env)).toMatchObject({
      config: '/srv/config',
      data: '/srv/data',
    });
    expect(resolvePaths('mainnet', env, { data: '/mnt/fast' })).toMatchObject({
      config: '/srv/config',
      data: '/mnt/fast',
    });
  });
});
