/** The setting an operator changes, as an environment variable and as the app.json option. */
interface Setting {
  readonly variable: string;
  readonly option: string;
}

const setting = (field: string): Setting => ({
  variable: `CORE_DB_${field.toUpperCase()}`,
  option: `connection.${field}`,
});

export interface FailedTarget {
  /** `host:port` as dialled. */
  readonly address: string;
  /** Given as a URL: every field is in CORE_DB_URL. */
  readonly viaUrl: boolean;
}

/**
 * Why a connection to PostgreSQL failed, in PostgreSQL's (or the network's) words, and which
 * setting to look at: `database "lni" does not exist; create it, or set CORE_DB_DATABASE …`.
 */
export function describeConnectionFailure(error: unknown, target: FailedTarget): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const reason = typeof message === 'string' && message !== '' ? message : String(error);
  const where = target.address;
  const settings = (...fields: string[]) =>
    settingsText(target.viaUrl ? [setting('url')] : fields.map(setting));
  // PostgreSQL's own words where it answered; ours, with the system's code, where it did not.
  const fix = (advice: string, ...fields: string[]) =>
    `${reason}; ${advice} ${settings(...fields)}`;
  const unreachable = (what: string, advice: string, ...fields: string[]) =>
    `${what} (${String(code ?? 'timeout')}); ${advice} ${settings(...fields)}`;
  switch (code) {
    case '3D000':
      return fix('create it, or set', 'database');
    case '28P01':
      return fix('set the right one in', 'password');
    case '28000':
      return /role .* does not exist/.test(reason)
        ? fix('create the role, or set', 'username')
        : fix("the server's pg_hba.conf refuses this connection; check it, or", 'host', 'username');
    case 'ECONNREFUSED':
      return unreachable(
        `nothing accepts connections at ${where}`,
        'start PostgreSQL there, or set',
        'host',
        'port',
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return unreachable(`the host of ${where} is unknown`, 'set', 'host');
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return unreachable(`no answer from ${where}`, 'check the network, or set', 'host', 'port');
    default:
      return /timeout/i.test(reason)
        ? unreachable(
            `no answer from ${where} in time`,
            'check the network, or set',
            'host',
            'port',
          )
        : reason;
  }
}

function settingsText(settings: readonly Setting[]): string {
  const variables = settings.map(({ variable }) => variable).join(' or ');
  const options = settings.map(({ option }) => option).join(', ');
  return `${variables} (${options} in app.json)`;
}
