import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseError } from '../errors.js';
import { startEmbeddedServer } from './embedded-server.js';

describe('startEmbeddedServer', () => {
  const directories: string[] = [];
  afterAll(async () => {
    await Promise.all(directories.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('refuses a directory another live process holds, and takes over a stale lock', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'lni-embedded-'));
    directories.push(directory);
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await writeFile(join(directory, 'lni.pid'), String(other.pid));
      const refused = startEmbeddedServer(directory);
      await expect(refused).rejects.toBeInstanceOf(DatabaseError);
      await expect(refused).rejects.toThrow(`in use by process ${other.pid}`);
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
    // The holder is gone: its lock is stale.
    const server = await startEmbeddedServer(directory);
    try {
      expect(await readFile(join(directory, 'lni.pid'), 'utf8')).toBe(String(process.pid));
      expect(server.port).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
    await expect(readFile(join(directory, 'lni.pid'))).rejects.toMatchObject({ code: 'ENOENT' });
  }, 60_000);
});
