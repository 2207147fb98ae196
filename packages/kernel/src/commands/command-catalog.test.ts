import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAppConfig } from '../app/app-config.js';
import { catalogCommands } from './command-catalog.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-catalog-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the commands plugins offer', () => {
  it("lists each plugin's commands once with the modes that list it, and a broken plugin's problem", async () => {
    await writeFile(
      join(dir, 'export.mjs'),
      `export default { name: 'export', register() {}, commands: [
        { name: 'blocks', description: 'export blocks', run() {} },
        { name: 'wallets', description: 'export wallets', run() {} },
      ] };`,
    );
    await writeFile(join(dir, 'quiet.mjs'), "export default { name: 'quiet', register() {} };");
    await writeFile(join(dir, 'broken.mjs'), 'export default {');
    const appFile = join(dir, 'app.json');
    const appJson = {
      core: { plugins: [{ package: './quiet.mjs' }, { package: './export.mjs' }] },
      relay: { plugins: [{ package: './export.mjs' }, { package: './broken.mjs' }] },
    };
    const catalog = await catalogCommands({
      appConfig: parseAppConfig(JSON.stringify(appJson), appFile),
      appFile,
      searchFrom: [],
    });
    expect(
      catalog.commands.map(({ plugin, command, modes }) => [plugin, command.name, modes]),
    ).toEqual([
      ['export', 'blocks', ['core', 'relay']],
      ['export', 'wallets', ['core', 'relay']],
    ]);
    expect(catalog.problems).toHaveLength(1);
    expect(catalog.problems[0]).toContain(
      `${appFile}, mode 'relay': plugin './broken.mjs' failed to load:`,
    );
  });
});
