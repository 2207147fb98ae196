import semver from 'semver';

/** Headers a client sends when it opens a connection (nes `auth.headers`). */
export interface HandshakeHeaders {
  readonly nethash: string;
  readonly version: string;
  /** The P2P port the client listens on, so the server can connect back (0 for a forger). */
  readonly port: number;
  /** `forger`: a forger process, which listens nowhere and is not dialled back as a peer. */
  readonly role?: 'forger';
}

export const HEADER_NAMES = {
  nethash: 'x-nethash',
  version: 'x-version',
  port: 'x-port',
  role: 'x-role',
} as const;

export function toHeaderRecord(headers: HandshakeHeaders): Record<string, string> {
  return {
    [HEADER_NAMES.nethash]: headers.nethash,
    [HEADER_NAMES.version]: headers.version,
    [HEADER_NAMES.port]: String(headers.port),
    ...(headers.role && { [HEADER_NAMES.role]: headers.role }),
  };
}

export type HandshakeCheck =
  | { readonly ok: true; readonly headers: HandshakeHeaders }
  | { readonly ok: false; readonly reason: string };

/** Checks what a connecting peer says about itself against our network and version. */
export function checkHandshake(
  raw: Readonly<Record<string, unknown>>,
  ours: { readonly nethash: string; readonly version: string },
): HandshakeCheck {
  const nethash = single(raw[HEADER_NAMES.nethash]);
  const version = single(raw[HEADER_NAMES.version]);
  const portText = single(raw[HEADER_NAMES.port]);
  if (!nethash) return { ok: false, reason: `header ${HEADER_NAMES.nethash} is missing` };
  if (nethash !== ours.nethash) {
    return {
      ok: false,
      reason: `wrong network: nethash ${nethash.slice(0, 16)}… is not ours (${ours.nethash.slice(0, 16)}…)`,
    };
  }
  const compatible = checkVersion(version, ours.version);
  if (compatible !== undefined) return { ok: false, reason: compatible };
  const role = single(raw[HEADER_NAMES.role]);
  if (role === 'forger') {
    return { ok: true, headers: { nethash, version: version as string, port: 0, role } };
  }
  if (role !== undefined) {
    return { ok: false, reason: `header ${HEADER_NAMES.role} must be "forger" when present` };
  }
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    return { ok: false, reason: `header ${HEADER_NAMES.port} must be a port number (1-65535)` };
  }
  return { ok: true, headers: { nethash, version: version as string, port } };
}

/** Undefined when `theirs` shares our semver major; otherwise the reason it does not. */
export function checkVersion(theirs: string | undefined, ours: string): string | undefined {
  if (!theirs) return `header ${HEADER_NAMES.version} is missing`;
  if (!semver.valid(theirs)) return `version "${theirs.slice(0, 40)}" is not a semver version`;
  if (semver.major(theirs) !== semver.major(ours)) {
    return `incompatible version ${theirs}: this node runs ${ours} (major ${semver.major(ours)})`;
  }
  return undefined;
}

function single(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}
