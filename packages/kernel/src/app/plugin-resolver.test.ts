import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planFromAppConfig } from './plan.js';
import { parseAppConfig } from './app-config.js';
import { KERNEL_VERSION } from './kernel-version.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-resolver-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const thirdParty = `
import Joi from 'joi';
export default {
  name: 'greeter',
  configSchema: Joi.object({ greeting: Joi.string().default('hello') }),
  register({ container, options }) { container.register('greeting', { resolve: () => options.greeting }); },
};
`;

async function plan(appJson: object, mode: 'core' | 'relay' | 'forger' = 'core') {
  const appFile = join(dir, 'app.json');
  await writeFile(appFile, JSON.stringify(appJson));
  return planFromAppConfig({
    appConfig: parseAppConfig(JSON.stringify(appJson), appFile),
    appFile,
    mode,
    env: {},
    searchFrom: [process.cwd()],
  });
}

describe('plugins named in app.json', () => {
  it('loads a third-party plugin from a path relative to app.json, with its options', async () => {
    await mkdir(join(dir, 'plugins'));
    // joi is resolved from the repository's node_modules through a symlink-free path: copy the import.
    await writeFile(
      join(dir, 'plugins', 'greeter.mjs'),
      thirdParty.replace("'joi'", `'${import.meta.resolve('joi')}'`),
    );
    const [instance] = await plan({
      core: { plugins: [{ package: './plugins/greeter.mjs', options: { greeting: 'hi' } }] },
    });
    expect(instance?.plugin.name).toBe('greeter');
    expect(instance?.options).toEqual({ greeting: 'hi' });
    expect(instance?.source).toBe('./plugins/greeter.mjs');
  });

  it('loads a plugin folder through its package.json', async () => {
    await mkdir(join(dir, 'my-plugin'));
    await writeFile(join(dir, 'my-plugin', 'package.json'), JSON.stringify({ main: 'lib.mjs' }));
    await writeFile(
      join(dir, 'my-plugin', 'lib.mjs'),
      "export const plugin = { name: 'folder', register() {} };",
    );
    const [instance] = await plan({ core: { plugins: [{ package: './my-plugin' }] } });
    expect(instance?.plugin.name).toBe('folder');
  });

  it('says where it looked for a package that cannot be found', async () => {
    await expect(
      plan({ core: { plugins: [{ package: '@acme/no-such-plugin' }] } }),
    ).rejects.toThrow(
      `plugin package '@acme/no-such-plugin' could not be found (looked from ${dir}, ${process.cwd()})`,
    );
  });

  it('rejects a module that does not export a plugin', async () => {
    await writeFile(join(dir, 'nothing.mjs'), 'export const answer = 42;');
    await writeFile(join(dir, 'broken.mjs'), 'export default { name: "broken" };');
    await expect(plan({ core: { plugins: [{ package: './nothing.mjs' }] } })).rejects.toThrow(
      "'./nothing.mjs' does not export a plugin: it has no default export nor `plugin`",
    );
    await expect(plan({ core: { plugins: [{ package: './broken.mjs' }] } })).rejects.toThrow(
      `'./broken.mjs' does not export a plugin: "register" is required`,
    );
  });

  it('rejects a mode that app.json does not define, and a plugin listed twice', async () => {
    await writeFile(join(dir, 'a.mjs'), "export default { name: 'a', register() {} };");
    await expect(plan({ core: { plugins: [] } }, 'relay')).rejects.toThrow(
      "mode 'relay' is not defined",
    );
    await expect(
      plan({ core: { plugins: [{ package: './a.mjs' }, { package: `${dir}/a.mjs` }] } }),
    ).rejects.toThrow(`mode 'core': plugin 'a' is listed twice (./a.mjs and ${dir}/a.mjs)`);
  });

  it('names app.json and the mode with a package that cannot be found', async () => {
    await expect(
      plan({ relay: { plugins: [{ package: '@acme/absent' }] } }, 'relay'),
    ).rejects.toThrow(
      `${join(dir, 'app.json')}, mode 'relay': plugin package '@acme/absent' could not be found`,
    );
  });

  it("refuses a plugin whose package supports other kernel versions, naming its range and the kernel's", async () => {
    await mkdir(join(dir, 'plugins', 'old'), { recursive: true });
    await writeFile(
      join(dir, 'plugins', 'old', 'package.json'),
      JSON.stringify({
        name: 'old',
        type: 'module',
        peerDependencies: { '@lni/kernel': '^9.0.0' },
      }),
    );
    await writeFile(
      join(dir, 'plugins', 'old', 'index.js'),
      "export default { name: 'old-timer', register() {} };",
    );
    await expect(
      plan({ core: { plugins: [{ package: './plugins/old/index.js' }] } }),
    ).rejects.toThrow(
      `${join(dir, 'app.json')}, mode 'core': plugin 'old-timer' (./plugins/old/index.js) supports @lni/kernel ^9.0.0, but this node runs @lni/kernel ${KERNEL_VERSION}`,
    );
  });

  it('finds a package installed in the plugins directory next to app.json (kernel plugin:add)', async () => {
    const installed = join(dir, 'plugins', 'node_modules', 'acme-watch');
    await mkdir(installed, { recursive: true });
    await writeFile(
      join(installed, 'package.json'),
      JSON.stringify({ name: 'acme-watch', type: 'module', main: 'index.js' }),
    );
    await writeFile(
      join(installed, 'index.js'),
      "export default { name: 'watch', register() {} };",
    );
    const [instance] = await plan({ core: { plugins: [{ package: 'acme-watch' }] } });
    expect(instance?.plugin.name).toBe('watch');
  });
});
