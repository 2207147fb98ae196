import { describe, expect, it } from 'vitest';
import { describeConnectionFailure } from './connection-failure.js';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('describeConnectionFailure', () => {
  const fields = { address: 'db.internal:5432', viaUrl: false };

  it("keeps PostgreSQL's words and names the setting to fix", () => {
    expect(
      describeConnectionFailure(
        pgError('28000', 'no pg_hba.conf entry for host "10.0.0.7", user "lni", database "lni"'),
        fields,
      ),
    ).toBe(
      `no pg_hba.conf entry for host "10.0.0.7", user "lni", database "lni"; the server's pg_hba.conf refuses this connection; check it, or CORE_DB_HOST or CORE_DB_USERNAME (connection.host, connection.username in app.json)`,
    );
    expect(
      describeConnectionFailure(pgError('53300', 'sorry, too many clients already'), fields),
    ).toBe('sorry, too many clients already');
  });

  it('points at CORE_DB_URL when the connection is given as a URL', () => {
    expect(
      describeConnectionFailure(pgError('3D000', 'database "lni" does not exist'), {
        address: 'db.internal:5432',
        viaUrl: true,
      }),
    ).toBe(
      'database "lni" does not exist; create it, or set CORE_DB_URL (connection.url in app.json)',
    );
  });

  it('says where nothing answered when the network fails', () => {
    expect(
      describeConnectionFailure(pgError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.internal'), fields),
    ).toBe(
      'the host of db.internal:5432 is unknown (ENOTFOUND); set CORE_DB_HOST (connection.host in app.json)',
    );
    expect(
      describeConnectionFailure(
        new Error('Connection terminated due to connection timeout'),
        fields,
      ),
    ).toBe(
      'no answer from db.internal:5432 in time (timeout); check the network, or set CORE_DB_HOST or CORE_DB_PORT (connection.host, connection.port in app.json)',
    );
  });
});
