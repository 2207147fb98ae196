import {
  AdminError,
  describeError,
  type AdminOperation,
  type StatusSection,
  canonicalAddress,
} from '@lni/kernel';
import type { Chain } from '@lni/state/contracts';
import Joi from 'joi';
import { isIP } from 'node:net';
import type { PeerNetwork } from '../peers/peer-network.js';
import type { PeerRepository } from '../peers/peer-repository.js';
import { parseBanDuration } from './ban-duration.js';

/** Without `for`, a ban an operator asks for lasts until `unban` (ten years). */
const DEFAULT_BAN = '3650d';

export interface PeerOperationsDependencies {
  readonly peers: () => PeerRepository;
  readonly network: () => PeerNetwork;
}

const ip = Joi.string().required();

/** `peers.list`, `peers.add`, `peers.ban`, `peers.unban`: the admin of the node's peers. */
export function peerOperations(deps: PeerOperationsDependencies): AdminOperation<object>[] {
  const list: AdminOperation = {
    name: 'peers.list',
    description: 'the connected peers, highest chain first, and the IPs banned now',
    run: () => ({ peers: deps.peers().list(), bans: deps.peers().bans() }),
  };
  const add: AdminOperation<{ address: string }> = {
    name: 'peers.add',
    description: 'dial IP:PORT, verify it as any peer and keep it',
    args: Joi.object({ address: Joi.string().required() }),
    run: async ({ address }) => {
      const { host, port } = parseAddress(address);
      let outcome;
      try {
        outcome = await deps.network().connect(host, port);
      } catch (error) {
        throw new AdminError('refused', `could not add peer ${address}: ${describeError(error)}`);
      }
      if (outcome !== 'added' && outcome !== 'updated') {
        throw new AdminError('refused', `peer ${address} was not added: ${REFUSALS[outcome]}`);
      }
      return { peer: deps.peers().get(host, port), outcome };
    },
  };
  const ban: AdminOperation<{ ip: string; for?: string }> = {
    name: 'peers.ban',
    description: 'refuse every connection from and to IP for a time (default: until unbanned)',
    args: Joi.object({ ip, for: Joi.string() }),
    run: ({ ip: address, for: duration }) => {
      const target = checkedIp(address);
      const until = Date.now() + parseBanDuration(duration ?? DEFAULT_BAN);
      deps.peers().ban(target, until, 'banned by the operator');
      return { ip: target, bannedUntil: new Date(until).toISOString() };
    },
  };
  const unban: AdminOperation<{ ip: string }> = {
    name: 'peers.unban',
    description: 'lift the ban of IP',
    args: Joi.object({ ip }),
    run: ({ ip: address }) => {
      const target = checkedIp(address);
      if (!deps.peers().unban(target)) {
        throw new AdminError('not-found', `${target} is not banned`);
      }
      return { ip: target, unbanned: true };
    },
  };
  return [list, add, ban, unban].map((operation) => operation as AdminOperation<object>);
}

/** `peers` and `sync` of `kernel status`: how many peers, and the height most of them report. */
export function peerStatusSections(
  peers: () => PeerRepository,
  chain: () => Chain,
): StatusSection[] {
  return [
    {
      name: 'peers',
      read: () => ({ connected: peers().size, banned: peers().bans().length }),
    },
    {
      name: 'sync',
      read: () => {
        const height = chain().status().height;
        const heights = peers()
          .list()
          .map((peer) => peer.height)
          .sort((a, b) => a - b);
        if (heights.length === 0)
          return { height, networkHeight: null, behind: null, synced: null };
        const networkHeight = Math.max(height, heights[Math.floor(heights.length / 2)] ?? height);
        const behind = networkHeight - height;
        return { height, networkHeight, behind, synced: behind === 0 };
      },
    },
  ];
}

const REFUSALS = {
  self: 'that is this node',
  banned: 'its IP is banned (unban it first)',
  full: 'the node has as many peers as maxPeers allows',
  subnet: 'its /24 already holds maxSameSubnetPeers peers',
  untrusted: 'it is not a peer of this network (another nethash, version or chain)',
} as const;

function parseAddress(address: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address.trim());
  const host = match?.[1];
  const port = Number(match?.[2]);
  const { error } = ip.validate(host);
  if (
    !match ||
    host === undefined ||
    error ||
    !Number.isInteger(port) ||
    port < 1 ||
    port > 65_535
  ) {
    throw new AdminError(
      'bad-input',
      `bad peer address '${address}': write IP:PORT, such as 10.0.0.5:4000`,
    );
  }
  return { host: canonicalAddress(host), port };
}

function checkedIp(address: string): string {
  if (isIP(address) === 0) {
    throw new AdminError(
      'bad-input',
      `bad IP '${address}': write an IPv4 or IPv6 address, such as 10.0.0.5`,
    );
  }
  return canonicalAddress(address);
}
