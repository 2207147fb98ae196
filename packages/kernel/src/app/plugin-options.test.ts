import Joi from 'joi';
import { describe, expect, it } from 'vitest';
import { listOption } from '../config/list-option.js';
import type { Plugin } from '../plugin.js';
import { validatePluginOptions } from './plugin-options.js';

interface ApiOptions {
  host: string;
  port: number;
  cors: { enabled: boolean; origins: string[] };
}

const api: Plugin<ApiOptions> = {
  name: 'api',
  configSchema: Joi.object<ApiOptions>({
    host: Joi.string().default('0.0.0.0'),
    port: Joi.number().port().default(4003),
    cors: Joi.object({
      enabled: Joi.boolean().default(true),
      origins: Joi.array().items(Joi.string()).default(['*']),
    }).default(),
  }),
  environment: { CORE_API_PORT: 'port', CORE_API_CORS: 'cors.enabled' },
  register: () => undefined,
};

describe('validatePluginOptions', () => {
  it('applies defaults and freezes the value deeply', () => {
    const { options, problems } = validatePluginOptions(api as Plugin<object>, {}, {}, 'core');
    expect(problems).toEqual([]);
    expect(options).toEqual({
      host: '0.0.0.0',
      port: 4003,
      cors: { enabled: true, origins: ['*'] },
    });
    expect(Object.isFrozen(options)).toBe(true);
    expect(Object.isFrozen((options as ApiOptions).cors.origins)).toBe(true);
  });

  it('lets the environment override app.json, converted to the option type', () => {
    const { options } = validatePluginOptions(
      api as Plugin<object>,
      { port: 5000 },
      { CORE_API_PORT: '4100', CORE_API_CORS: 'false' },
      'core',
    );
    expect(options).toMatchObject({ port: 4100, cors: { enabled: false } });
  });

  it('reports every error with mode, plugin, key and the variable that set it', () => {
    const { problems } = validatePluginOptions(
      api as Plugin<object>,
      { host: 7, extra: true },
      { CORE_API_PORT: 'eighty' },
      'relay',
    );
    expect(problems).toEqual([
      `mode 'relay', plugin 'api', option 'host': "host" must be a string`,
      `mode 'relay', plugin 'api', option 'extra': "extra" is not allowed`,
      `mode 'relay', plugin 'api', option 'port' (set by CORE_API_PORT): "port" must be a number`,
    ]);
  });

  it('names the variable that set a list when one of its items is wrong', () => {
    const proxies: Plugin<{ trustedProxies: string[] }> = {
      name: 'api',
      configSchema: Joi.object({
        trustedProxies: listOption().items(Joi.string().ip()).default([]),
      }),
      environment: { CORE_API_TRUSTED_PROXIES: 'trustedProxies' },
      register: () => undefined,
    };
    const { problems } = validatePluginOptions(
      proxies as Plugin<object>,
      {},
      { CORE_API_TRUSTED_PROXIES: '10.0.0.1,proxy' },
      'core',
    );
    expect(problems).toEqual([
      `mode 'core', plugin 'api', option 'trustedProxies.1' (set by CORE_API_TRUSTED_PROXIES): "trustedProxies[1]" must be a valid ip address with a optional CIDR`,
    ]);
  });

  it('refuses options for a plugin without a schema', () => {
    const plain: Plugin<object> = { name: 'plain', register: () => undefined };
    const { problems } = validatePluginOptions(plain, { verbose: true }, {}, 'core');
    expect(problems).toEqual([
      "mode 'core', plugin 'plain', option 'verbose': the plugin takes no options",
    ]);
  });

  it('does not change the options it was given', () => {
    const raw = { cors: { enabled: true } };
    validatePluginOptions(api as Plugin<object>, raw, { CORE_API_CORS: 'false' }, 'core');
    expect(raw).toEqual({ cors: { enabled: true } });
  });
});

describe('validatePluginOptions with the environment over app.json', () => {
  it('still validates the app.json value the environment replaces, and says so', () => {
    const { problems } = validatePluginOptions(
      api as Plugin<object>,
      { port: 'abc' },
      { CORE_API_PORT: '4100' },
      'core',
    );
    expect(problems).toEqual([
      `mode 'core', plugin 'api', option 'port' (in app.json; CORE_API_PORT overrides it for now): "port" must be a number`,
    ]);
  });

  it('lists the options app.json sets that a variable replaces, and only those', () => {
    const { options, overrides } = validatePluginOptions(
      api as Plugin<object>,
      { port: 5000 },
      { CORE_API_PORT: '4100', CORE_API_CORS: 'false' },
      'core',
    );
    expect(options).toMatchObject({ port: 4100, cors: { enabled: false } });
    expect(overrides).toEqual([{ option: 'port', variable: 'CORE_API_PORT' }]);
  });
});
