import type { Request } from '@hapi/hapi';
import type { Nes } from '@hapi/nes';
import { AddressRanges, parseAddress } from '@lni/kernel';

/**
 * Who a request comes from, behind reverse proxies: the peer of the connection, unless that
 * peer is a trusted proxy; then X-Forwarded-For is walked from the right, each trusted proxy
 * skipped, and the first address that is not one is the client. A header from a peer that is
 * not trusted is ignored (a client may write anything there), so with no trusted proxies
 * (the default) the client is always the peer. Addresses come back in one form (IPv4-mapped
 * IPv6 as IPv4).
 */
export class ClientAddress {
  readonly #trusted: AddressRanges;

  constructor(trustedProxies: readonly string[]) {
    this.#trusted = new AddressRanges(trustedProxies);
  }

  /** The client of a connection from `peer` that carried `forwardedFor` (the header's value). */
  resolve(peer: string, forwardedFor: string | undefined): string {
    let client = parseAddress(peer);
    if (client === undefined) return peer;
    if (forwardedFor === undefined || !this.#trusted.has(client)) return client.toString();
    const hops = forwardedFor.split(',').reverse();
    for (const hop of hops) {
      const address = parseAddress(hop);
      // No address where a trusted proxy should have written one: the walk ends at the last
      // hop that could be checked.
      if (address === undefined) break;
      client = address;
      if (!this.#trusted.has(address)) break;
    }
    return client.toString();
  }

  ofRequest(request: Request): string {
    // Node joins repeated X-Forwarded-For lines into one value, in order.
    const header: unknown = request.headers['x-forwarded-for'];
    return this.resolve(
      request.info.remoteAddress,
      typeof header === 'string' ? header : undefined,
    );
  }

  /** The client of a live subscription: nes keeps the upgrade request's header. */
  ofSocket(socket: Nes.Socket): string {
    return this.resolve(socket.info.remoteAddress, socket.info['x-forwarded-for']);
  }
}
