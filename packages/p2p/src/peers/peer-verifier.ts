import type { BlockHeader } from '@lni/crypto';
import type { Chain } from '@lni/state/contracts';
import { findHighestCommonBlock } from '../sync/common-block-search.js';
import type { StatusReply } from '../wire/messages.js';
import type { PeerClient } from './peer-client.js';
import type { VersionPolicy } from './version-policy.js';

export type Verification =
  | {
      readonly verified: true;
      /** The peer's chain left ours below both tips. */
      readonly forked: boolean;
      readonly commonHeight: number;
    }
  | { readonly verified: false; readonly reason: string };

export interface PeerVerifierDeps {
  readonly chain: Chain;
  readonly versions: VersionPolicy;
  /** Blocks per round: the headers after the common block are checked to the round's end. */
  readonly roundLength: () => number;
}

/**
 * Decides whether a peer is one of ours, as ARK Core 3.x's PeerVerifier does: same nethash, an
 * accepted version, an authentic last header; then, unless its tip is on our chain, the highest
 * block in common (found with getCommonBlocks) and the peer's headers after it up to the end of
 * that round, each signed by a delegate of the round. A forked peer is still a verified peer.
 */
export class PeerVerifier {
  constructor(private readonly deps: PeerVerifierDeps) {}

  /** Why the peer's announced network or version is not ours; undefined when they are. */
  refuseConfig(status: StatusReply): string | undefined {
    const { nethash, name } = status.config.network;
    if (nethash !== this.deps.chain.network.nethash) {
      return `another network (${name}, nethash ${nethash.slice(0, 16)}…)`;
    }
    return this.deps.versions.refuse(status.config.version);
  }

  async verify(client: PeerClient, status: StatusReply, deadline: number): Promise<Verification> {
    const refusal = this.refuseConfig(status);
    if (refusal) return { verified: false, reason: refusal };
    const { chain } = this.deps;
    const claimed = status.state.header;
    const headerCheck = await chain.checkHeader(claimed);
    if (!headerCheck.valid) {
      return { verified: false, reason: `its last block: ${headerCheck.reason}` };
    }
    const ours = chain.status().height;
    if (claimed.height <= ours) {
      const [mine] = await chain.blockIds([claimed.height]);
      if (mine?.id === claimed.id) {
        return { verified: true, forked: false, commonHeight: claimed.height };
      }
    }
    const search = await findHighestCommonBlock(chain, client, Math.min(claimed.height, ours), () =>
      remaining(deadline),
    );
    if (!search.found) return { verified: false, reason: search.reason };
    const common = search.height;
    const refusedBlock = await this.checkBlocksAfter(client, common, claimed.height, deadline);
    if (refusedBlock) return { verified: false, reason: refusedBlock };
    return {
      verified: true,
      forked: common !== ours && common !== claimed.height,
      commonHeight: common,
    };
  }

  /** Checks the peer's headers after `common` to the end of that round; the reason if one fails. */
  private async checkBlocksAfter(
    client: PeerClient,
    common: number,
    claimedHeight: number,
    deadline: number,
  ): Promise<string | undefined> {
    const roundLength = this.deps.roundLength();
    const roundEnd = Math.ceil((common + 1) / roundLength) * roundLength;
    const end = Math.min(claimedHeight, roundEnd);
    for (let height = common + 1; height <= end;) {
      remaining(deadline);
      const headers: BlockHeader[] = (
        await client.blocks(height, Math.min(end - height + 1, 400), true)
      ).map((block) => block.header);
      if (headers.length === 0) return `it sent no blocks from height ${height}`;
      for (const header of headers) {
        if (header.height !== height) {
          return `asked for block ${height}, it sent block ${header.height}`;
        }
        const check = await this.deps.chain.checkHeader(header);
        if (!check.valid) return `its block ${height}: ${check.reason}`;
        height += 1;
        if (height > end) break;
      }
    }
    return undefined;
  }
}

function remaining(deadline: number): number {
  const left = deadline - Date.now();
  if (left <= 0) throw new Error('peer verification ran out of time');
  return left;
}
