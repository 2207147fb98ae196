import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import type { Plugin } from '../plugin.js';
import { checkPluginConfig } from './config-check.js';
import { planFromPlugins } from './plan.js';

const paths = { config: '/etc/lni', data: '/var/lib/lni', log: '/var/lib/lni/logs/node.log' };
const plugin = (name: string, checkConfig?: Plugin['checkConfig']): Plugin => ({
  name,
  register: () => undefined,
  ...(checkConfig && { checkConfig }),
});

describe('checkPluginConfig', () => {
  it("reports every plugin's problems at once, with mode and plugin", async () => {
    const plugins = planFromPlugins(
      [
        { plugin: plugin('quiet') },
        { plugin: plugin('forger', () => ['/etc/lni/delegates.json: not valid JSON']) },
        {
          plugin: plugin('state', async ({ paths: where }) => [
            `${where.config}/crypto/network.json: file not found`,
          ]),
        },
      ],
      'core',
      {},
    );
    const check = checkPluginConfig(plugins, { paths, mode: 'core', network: 'testnet' });
    await expect(check).rejects.toBeInstanceOf(ConfigError);
    await expect(check).rejects.toThrow(
      [
        "mode 'core', plugin 'forger': /etc/lni/delegates.json: not valid JSON",
        "mode 'core', plugin 'state': /etc/lni/crypto/network.json: file not found",
      ].join('\n'),
    );
  });

  it('reports a check that throws as a problem of its plugin', async () => {
    const plugins = planFromPlugins(
      [
        {
          plugin: plugin('broken', () => {
            throw new Error('boom');
          }),
        },
      ],
      'relay',
      {},
    );
    await expect(
      checkPluginConfig(plugins, { paths, mode: 'relay', network: 'testnet' }),
    ).rejects.toThrow("mode 'relay', plugin 'broken': the configuration check failed: boom");
  });

  it('passes when no plugin finds a problem', async () => {
    const plugins = planFromPlugins([{ plugin: plugin('fine', () => []) }], 'core', {});
    await expect(
      checkPluginConfig(plugins, { paths, mode: 'core', network: 'testnet' }),
    ).resolves.toBeUndefined();
  });
});
