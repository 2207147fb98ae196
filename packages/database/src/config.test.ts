import { ConfigError } from '@lni/kernel';
import { describe, expect, it } from 'vitest';
import { databaseOptionsFromEnvironment } from './config.js';

describe('databaseOptionsFromEnvironment', () => {
  it('is the embedded database when no host or URL is set', () => {
    const options = databaseOptionsFromEnvironment({});
    expect(options.connection.host).toBeUndefined();
    expect(options.connection.url).toBeUndefined();
    expect(options.migrateOnStart).toBe(true);
  });

  it('takes CORE_DB_* over the given options', () => {
    const options = databaseOptionsFromEnvironment(
      { CORE_DB_HOST: 'db.internal', CORE_DB_PORT: '6432', CORE_DB_PASSWORD: 's3cret' },
      { connection: { host: 'elsewhere', database: 'mainnet' } },
    );
    expect(options.connection).toEqual({
      host: 'db.internal',
      port: 6432,
      database: 'mainnet',
      username: 'postgres',
      password: 's3cret',
    });
  });

  it('reports a bad value as a configuration error naming the variable’s option', () => {
    expect(() => databaseOptionsFromEnvironment({ CORE_DB_PORT: 'http' })).toThrow(ConfigError);
    expect(() => databaseOptionsFromEnvironment({ CORE_DB_PORT: 'http' })).toThrow(
      /connection\.port/,
    );
  });
});
