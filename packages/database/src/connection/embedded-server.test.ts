import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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

  it('refuses a directory another live process holds', async () => {
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
  });
});
