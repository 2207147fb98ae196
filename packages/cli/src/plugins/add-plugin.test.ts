import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addPlugin } from './add-plugin.js';
import { removePlugin } from './remove-plugin.js';

// Under vitest a plugin's bare imports do not go through the node's resolve hook: joi by URL.
const joi = import.meta.resolve('joi');

let dir: string;
let config: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-add-plugin-'));
  config = join(dir, 'config');
  await mkdir(join(config, 'plugins'), { recursive: true });
  await writeFile(
    join(config, 'plugins', 'store.mjs'),
    "export default { name: 'store', register() {} };",
  );
  await writeFile(join(config, 'app.json'), appJson);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const appJson = `{
  "core": { "plugins": [{ "package": "./plugins/store.mjs", "options": {} }] },
  "relay": { "plugins": [] }
}
`;

/** A plugin package in the author's directory, as `plugin:add` takes it. */
async function pluginPackage(name: string, body: string): Promise<string> {
  const directory = join(dir, name);
  await mkdir(directory);
  await writeFile(
    join(directory, 'package.json'),
    JSON.stringify({ name, version: '1.2.0', type: 'module', main: 'index.js' }),
  );
  await writeFile(
    join(directory, 'index.js'),
    `import Joi from '${joi}';\nexport default { name: '${name}', register() {}, ${body} };\n`,
  );
  return directory;
}

const settings = (spec: string, modes?: ('core' | 'relay')[]) => ({
  spec,
  configDir: config,
  env: {},
  cwd: dir,
  searchFrom: [],
  ...(modes && { modes }),
});
const installed = (name: string) => existsSync(join(config, 'plugins', 'node_modules', name));

describe('kernel plugin:add and plugin:remove', () => {
  it('adds a plugin to the modes that run what it requires, and removes it again', async () => {
    const spec = await pluginPackage('store-report', "dependsOn: { required: ['store'] },");
    const outcome = await addPlugin(settings(spec));
    expect(outcome).toMatchObject({
      package: { name: 'store-report', version: '1.2.0' },
      plugin: 'store-report',
      added: ['core'],
      listed: [],
    });
    expect(installed('store-report')).toBe(true);
    expect(await readFile(join(config, 'app.json'), 'utf8')).toBe(`{
  "core": { "plugins": [{ "package": "./plugins/store.mjs", "options": {} }, { "package": "store-report", "options": {} }] },
  "relay": { "plugins": [] }
}
`);
    await expect(
      removePlugin({ name: 'store-report', configDir: config, env: {}, searchFrom: [] }),
    ).resolves.toEqual({ appFile: join(config, 'app.json'), modes: ['core'], uninstalled: true });
    expect(await readFile(join(config, 'app.json'), 'utf8')).toBe(appJson);
    expect(installed('store-report')).toBe(false);
  });

  it('refuses a mode without its required plugin, and uninstalls it again', async () => {
    const spec = await pluginPackage('store-report', "dependsOn: { required: ['store'] },");
    await expect(addPlugin(settings(spec, ['relay']))).rejects.toThrow(
      "plugin 'store-report' cannot be added: plugin 'store-report' requires 'store', which is not enabled in mode 'relay'",
    );
    expect(installed('store-report')).toBe(false);
    expect(await readFile(join(config, 'app.json'), 'utf8')).toBe(appJson);
  });

  it('refuses a plugin whose default options are not valid, naming the option', async () => {
    const spec = await pluginPackage(
      'mailer',
      'configSchema: Joi.object({ smtp: Joi.string().uri().required() }),',
    );
    await expect(addPlugin(settings(spec))).rejects.toThrow(
      `plugin 'mailer' cannot be added: mode 'core', plugin 'mailer', option 'smtp': "smtp" is required; mode 'relay', plugin 'mailer', option 'smtp': "smtp" is required`,
    );
    expect(installed('mailer')).toBe(false);
  });

  it('refuses to remove a plugin another plugin of the mode requires', async () => {
    const spec = await pluginPackage('store-report', "dependsOn: { required: ['store'] },");
    await addPlugin(settings(spec));
    await expect(
      removePlugin({ name: './plugins/store.mjs', configDir: config, env: {}, searchFrom: [] }),
    ).rejects.toThrow(
      "'./plugins/store.mjs' cannot be removed: plugin 'store-report' requires 'store', which is not enabled in mode 'core'",
    );
  });
});
