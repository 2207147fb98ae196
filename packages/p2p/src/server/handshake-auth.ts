import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import type { Logger } from '@lni/kernel';
import { checkHandshake, type HandshakeHeaders } from '../protocol/handshake.js';

export const HANDSHAKE_STRATEGY = 'p2p-handshake';

/** What a connection proved at its handshake; nes keeps it for every later request of the socket. */
export interface PeerCredentials extends HandshakeHeaders {
  readonly ip: string;
}

/**
 * The handshake as a hapi auth strategy: nes runs it once when a client says hello (its
 * `auth.headers`), so a peer of another network or major version never gets a connection.
 */
export function registerHandshakeAuth(
  server: Server,
  ours: () => { readonly nethash: string; readonly version: string },
  logger: Logger,
): void {
  server.auth.scheme(HANDSHAKE_STRATEGY, () => ({
    authenticate(request, h) {
      const check = checkHandshake(request.headers, ours());
      const ip = request.info.remoteAddress;
      if (!check.ok) {
        logger.info({ ip, reason: check.reason }, 'Handshake refused');
        throw Boom.forbidden(check.reason);
      }
      const credentials: PeerCredentials = { ...check.headers, ip };
      return h.authenticated({ credentials: { ...credentials } });
    },
  }));
  server.auth.strategy(HANDSHAKE_STRATEGY, HANDSHAKE_STRATEGY);
  server.auth.default(HANDSHAKE_STRATEGY);
}

export function peerCredentials(credentials: unknown): PeerCredentials {
  return credentials as PeerCredentials;
}
