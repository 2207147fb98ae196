import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { parseAppConfig } from './app-config.js';

describe('parseAppConfig', () => {
  it('reads the plugins of each mode with empty options by default', () => {
    const config = parseAppConfig(
      JSON.stringify({
        core: { plugins: [{ package: '@lni/database' }] },
        forger: { plugins: [] },
      }),
      'app.json',
    );
    expect(config.core?.plugins).toEqual([{ package: '@lni/database', options: {} }]);
    expect(config.forger?.plugins).toEqual([]);
    expect(config.relay).toBeUndefined();
  });

  it('accepts the api mode beside the others', () => {
    const config = parseAppConfig(
      JSON.stringify({ api: { plugins: [{ package: '@lni/api', options: { port: 4103 } }] } }),
      'app.json',
    );
    expect(config.api?.plugins).toEqual([{ package: '@lni/api', options: { port: 4103 } }]);
  });

  it('names the file, line and column of malformed JSON', () => {
    const text = '{\n  "core": {\n    "plugins": [,]\n  }\n}';
    expect(() => parseAppConfig(text, '/etc/lni/app.json')).toThrow(
      '/etc/lni/app.json:3:17: value expected',
    );
  });

  it('reports a truncated file at its end', () => {
    expect(() => parseAppConfig('{\n  "core": {', 'app.json')).toThrow(
      'app.json:2:12: close brace expected',
    );
  });

  it('reports every structural problem with its path', () => {
    const error = catchError(() =>
      parseAppConfig(
        JSON.stringify({ core: { plugins: [{ options: {} }] }, relay: {}, edge: { plugins: [] } }),
        'app.json',
      ),
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(
      'core.plugins.0.package: "core.plugins[0].package" is required',
    );
    expect(error.message).toContain('relay.plugins');
    expect(error.message).toContain('edge: "edge" is not allowed');
  });
});

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}
