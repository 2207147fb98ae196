import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SeedListError } from '../errors.js';
import { loadSeedList } from './seed-list.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'lni-seeds-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('loadSeedList', () => {
  it("reads ARK's peers.json layout", async () => {
    const list = [
      { ip: '10.0.0.1', port: 4000 },
      { ip: '2001:db8::1', port: 4001 },
    ];
    await writeFile(join(directory, 'peers.json'), JSON.stringify({ list, sources: [] }));
    expect(await loadSeedList(directory)).toEqual(list);
  });

  it('treats a missing file as no seeds', async () => {
    expect(await loadSeedList(directory)).toEqual([]);
  });

  it('names the file and the field that is wrong', async () => {
    await writeFile(
      join(directory, 'peers.json'),
      JSON.stringify({ list: [{ ip: 'nope', port: 4000 }] }),
    );
    const error = await loadSeedList(directory).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SeedListError);
    expect((error as Error).message).toMatch(/peers\.json: .*list\[0\]\.ip/);
  });

  it('reports a file that is not JSON', async () => {
    await writeFile(join(directory, 'peers.json'), '{ list: ');
    await expect(loadSeedList(directory)).rejects.toThrow(/peers\.json: not valid JSON/);
  });
});
