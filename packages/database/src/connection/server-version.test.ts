import { describe, expect, it } from 'vitest';
import { unsupportedServer } from './server-version.js';

describe('unsupportedServer', () => {
  it('refuses a server older than 12, naming its version, the need and the setting', () => {
    const reason = unsupportedServer(110_022, '11.22 (Debian 11.22-0+deb10u1)');
    expect(reason).toBe(
      'PostgreSQL 11.22 is too old: LNI needs 12 or later; upgrade the server, or point ' +
        'CORE_DB_HOST or CORE_DB_URL (connection.host, connection.url) at one that is',
    );
    expect(unsupportedServer(90_624, '9.6.24')).toMatch(/^PostgreSQL 9\.6\.24 is too old/);
  });

  it('accepts 12 and every later server', () => {
    expect(unsupportedServer(120_000, '12.0')).toBeUndefined();
    expect(unsupportedServer(150_019, '15.19 (Debian 15.19-0+deb12u1)')).toBeUndefined();
    expect(unsupportedServer(170_004, '17.4')).toBeUndefined();
  });
});
