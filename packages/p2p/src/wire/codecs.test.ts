import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { blockHeaderFromJson, blockHeaderToJson, type BlockHeader } from '@lni/crypto';
import {
  getBlocksCodec,
  getCommonBlocksCodec,
  getPeersCodec,
  getStatusCodec,
  postBlockCodec,
  postTransactionsCodec,
} from './codecs.js';
import type { StatusReply } from './messages.js';
import { WireError } from './wire-error.js';

// ARK Core 3.9.1's own codecs, from npm, as the oracle of the wire format.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const ark: any = createRequire(import.meta.url)(
  '@arkecosystem/core-p2p/dist/socket-server/codecs/index.js',
).Codecs;

const header: BlockHeader = blockHeaderFromJson({
  id: 'a1'.repeat(32),
  height: 12_345,
  version: 0,
  timestamp: 123_456_789,
  previousBlock: 'b2'.repeat(32),
  numberOfTransactions: 2,
  totalAmount: '1000000000000',
  totalFee: '20000000',
  reward: '200000000',
  payloadLength: 64,
  payloadHash: 'c3'.repeat(32),
  generatorPublicKey: `02${'d4'.repeat(32)}`,
  blockSignature: `3044${'e5'.repeat(66)}`,
});

const status: StatusReply = {
  state: { height: 12_345, forgingAllowed: true, currentSlot: 15_432, header },
  config: {
    version: '3.9.1',
    network: {
      name: 'testnet',
      nethash: 'f6'.repeat(32),
      explorer: 'http://localhost:4200',
      token: { name: 'ARK', symbol: 'TѦ' },
      version: 23,
    },
    plugins: { '@arkecosystem/core-api': { port: 4003, enabled: true, estimateTotalCount: true } },
  },
};

// ARK's reply schemas (AJV with its crypto keywords), as ARK checks every reply it receives.
const require = createRequire(import.meta.url);
const arkReplySchemas: Record<string, object> =
  require('@arkecosystem/core-p2p/dist/schemas.js').replySchemas;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const arkCrypto: any = require(
  require.resolve('@arkecosystem/crypto', { paths: [require.resolve('@arkecosystem/core-p2p')] }),
);
arkCrypto.Managers.configManager.setFromPreset('testnet');
const arkRefusal = (route: string, reply: unknown): string | undefined =>
  arkCrypto.Validation.validator.validate(arkReplySchemas[route], reply).error;

/** ARK's decoders leave BigNumbers and protobuf prototypes; compare plain JSON. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** What ARK's side reads and writes: the header in ARK's JSON form (amounts as strings). */
const arkStatus = { ...status, state: { ...status.state, header: blockHeaderToJson(header) } };

describe('the wire codecs against ARK Core 3.9.1', () => {
  it('write the getStatus request byte for byte as ARK does', () => {
    const ours = getStatusCodec.encodeRequest({ headers: { version: '3.9.1' } });
    expect(ours.toString('hex')).toBe('0a070a05332e392e31');
    expect(ark.getStatus.request.serialize({ headers: { version: '3.9.1' } })).toEqual(ours);
  });

  it('round-trip getStatus replies both ways', () => {
    const fromUs = ark.getStatus.response.deserialize(getStatusCodec.encodeReply(status));
    // Zero values travel too (version 0), as ARK's encoder writes them: ARK requires some.
    expect(plain(fromUs)).toEqual(plain(arkStatus));
    const fromArk = ark.getStatus.response.serialize(structuredClone(arkStatus));
    expect(getStatusCodec.decodeReply(fromArk)).toEqual({
      ...status,
      // What peers learn from a plugin entry is its port and whether it is enabled.
      config: {
        ...status.config,
        plugins: { '@arkecosystem/core-api': { port: 4003, enabled: true } },
      },
    });
  });

  it('round-trip getPeers and getCommonBlocks, our extra fields ignored by ARK', () => {
    const peers = [
      { ip: '10.77.0.2', port: 4000 },
      { ip: '2001:db8::1', port: 4001 },
    ];
    expect(ark.getPeers.response.deserialize(getPeersCodec.encodeReply(peers))).toEqual(peers);
    expect(getPeersCodec.decodeReply(ark.getPeers.response.serialize(peers))).toEqual(peers);
    // An IPv4-mapped address is read as its IPv4 form; what is no address refuses the reply.
    const mapped = ark.getPeers.response.serialize([{ ip: '::ffff:10.77.0.9', port: 4000 }]);
    expect(getPeersCodec.decodeReply(mapped)).toEqual([{ ip: '10.77.0.9', port: 4000 }]);
    for (const ip of ['127.1', 'localhost', '']) {
      const reply = ark.getPeers.response.serialize([{ ip, port: 4000 }]);
      expect(() => getPeersCodec.decodeReply(reply), ip).toThrow('peers[0].ip is not an address');
    }

    const request = { ids: ['123', 'ab'.repeat(32)], headers: { version: '3.9.1', port: 4002 } };
    const decodedByArk = ark.getCommonBlocks.request.deserialize(
      getCommonBlocksCodec.encodeRequest(request),
    );
    expect(plain(decodedByArk)).toEqual({
      ids: request.ids,
      headers: { version: '3.9.1' },
    });
    expect(
      getCommonBlocksCodec.decodeRequest(
        ark.getCommonBlocks.request.serialize({ ids: request.ids, headers: { version: '3.9.1' } }),
      ),
    ).toEqual({ ids: request.ids, headers: { version: '3.9.1' } });

    const common = { common: { id: '123', height: 7 } };
    expect(
      plain(ark.getCommonBlocks.response.deserialize(getCommonBlocksCodec.encodeReply(common))),
    ).toEqual(common);
    // No block in common: an empty reply, which ARK reads as `common: null`.
    const none = ark.getCommonBlocks.response.deserialize(
      getCommonBlocksCodec.encodeReply({ common: null }),
    );
    expect(none.common).toBeNull();
    expect(
      getCommonBlocksCodec.decodeReply(ark.getCommonBlocks.response.serialize(common)),
    ).toEqual(common);
  });

  it('round-trip getBlocks, full and headers-only, in ARK length-prefixed packing', () => {
    const transactions = [Buffer.from('ff0102', 'hex'), Buffer.alloc(300, 7)];
    const blocks = [
      { header, transactions },
      { header: { ...header, height: 12_346, id: '9'.repeat(19) }, transactions: [] },
    ];
    const arkView = ark.getBlocks.response.deserialize(getBlocksCodec.encodeReply(blocks));
    expect(arkView).toHaveLength(2);
    expect(plain(arkView[0])).toEqual({
      ...blockHeaderToJson(header),
      transactions: transactions.map((tx) => tx.toString('hex')),
    });
    expect(arkView[1].id).toBe('9'.repeat(19));

    const arkBytes = ark.getBlocks.response.serialize(
      blocks.map((block) => ({
        ...blockHeaderToJson(block.header),
        transactions: block.transactions.map((tx) => tx.toString('hex')),
      })),
    );
    expect(getBlocksCodec.decodeReply(arkBytes)).toEqual(blocks);

    const request = { lastBlockHeight: 51, blockLimit: 400, headersOnly: true };
    const arkRequest = ark.getBlocks.request.serialize({
      ...request,
      serialized: true,
      headers: { version: '3.9.1' },
    });
    expect(getBlocksCodec.decodeRequest(arkRequest)).toEqual({
      ...request,
      headers: { version: '3.9.1' },
    });
    expect(
      plain(
        ark.getBlocks.request.deserialize(
          getBlocksCodec.encodeRequest({ ...request, headers: { version: '3.9.1' } }),
        ),
      ),
    ).toEqual({ ...request, serialized: true, headers: { version: '3.9.1' } });
  });

  it('round-trip postBlock and postTransactions; LNI verdicts travel beside ARK fields', () => {
    const block = Buffer.from('00'.repeat(200), 'hex');
    const arkRequest = ark.postBlock.request.serialize({ block, headers: { version: '3.9.1' } });
    expect(postBlockCodec.decodeRequest(arkRequest)).toEqual({
      block,
      hops: 0,
      headers: { version: '3.9.1' },
    });
    const ourRequest = postBlockCodec.encodeRequest({ block, hops: 2 });
    expect(ark.postBlock.request.deserialize(ourRequest).block).toEqual(block);

    const reply = { status: true, height: 99, verdict: 'accepted' as const };
    expect(plain(ark.postBlock.response.deserialize(postBlockCodec.encodeReply(reply)))).toEqual({
      status: true,
      height: 99,
    });
    expect(
      postBlockCodec.decodeReply(ark.postBlock.response.serialize({ status: false, height: 5 })),
    ).toEqual({
      status: false,
      height: 5,
    });

    const transactions = [Buffer.alloc(120, 1), Buffer.alloc(33, 2)];
    const fromArk = ark.postTransactions.request.serialize({
      transactions,
      headers: { version: '3.9.1' },
    });
    expect(postTransactionsCodec.decodeRequest(fromArk)).toEqual({
      transactions,
      hops: 0,
      headers: { version: '3.9.1' },
    });
    const toArk = ark.postTransactions.request.deserialize(
      postTransactionsCodec.encodeRequest({ transactions, hops: 1 }),
    );
    expect(toArk.transactions).toEqual(transactions);

    const ids = ['ab'.repeat(32)];
    const accepted = postTransactionsCodec.encodeReply({
      accept: ids,
      invalid: [{ index: 1, reason: 'ERR_TX_NONCE' }],
    });
    expect(ark.postTransactions.response.deserialize(accepted)).toEqual(ids);
    expect(postTransactionsCodec.decodeReply(ark.postTransactions.response.serialize(ids))).toEqual(
      { accept: ids, invalid: [] },
    );
  });
});

describe("our replies pass ARK's own checks, as ARK decodes them", () => {
  // A testnet header of the short-id era: ids are decimal, the genesis block has timestamp 0.
  const genesis: BlockHeader = {
    ...header,
    id: '17184958558311101492',
    height: 1,
    timestamp: 0,
    previousBlock: null,
    reward: 0n,
  };
  const later: BlockHeader = {
    ...header,
    id: '8455799608564257732',
    height: 6,
    previousBlock: '3955395342737774964',
    numberOfTransactions: 0,
    payloadLength: 0,
  };

  it('getStatus, with forgingAllowed false, a genesis tip and no explorer', () => {
    for (const tip of [genesis, later]) {
      const reply = {
        state: { height: tip.height, forgingAllowed: false, currentSlot: 38_173_208, header: tip },
        config: { ...status.config, network: { ...status.config.network, explorer: '' } },
      };
      const decoded = ark.getStatus.response.deserialize(getStatusCodec.encodeReply(reply));
      expect(arkRefusal('p2p.peer.getStatus', decoded), `tip ${tip.height}`).toBeUndefined();
    }
  });

  it('getBlocks, getPeers, getCommonBlocks and postBlock', () => {
    const blocks = ark.getBlocks.response.deserialize(
      getBlocksCodec.encodeReply([{ header: later, transactions: [] }]),
    );
    for (const block of blocks) delete block.transactions; // as ARK's client does (headers only)
    expect(arkRefusal('p2p.blocks.getBlocks', blocks)).toBeUndefined();
    const peers = ark.getPeers.response.deserialize(
      getPeersCodec.encodeReply([{ ip: '10.77.0.3', port: 4000 }]),
    );
    expect(arkRefusal('p2p.peer.getPeers', peers)).toBeUndefined();
    for (const common of [{ id: later.id, height: 6 }, null]) {
      const decoded = ark.getCommonBlocks.response.deserialize(
        getCommonBlocksCodec.encodeReply({ common }),
      );
      expect(arkRefusal('p2p.peer.getCommonBlocks', decoded)).toBeUndefined();
    }
    const posted = ark.postBlock.response.deserialize(
      postBlockCodec.encodeReply({ status: false, height: 6, verdict: 'rejected', reason: 'x' }),
    );
    expect(arkRefusal('p2p.blocks.postBlock', posted)).toBeUndefined();
  });
});

describe('the wire codecs refuse malformed input with a WireError naming the field', () => {
  it.each([
    ['truncated protobuf', () => getBlocksCodec.decodeRequest(Buffer.from('0a', 'hex'))],
    [
      'blockLimit 0 (absent)',
      () =>
        getBlocksCodec.decodeRequest(
          getBlocksCodec.encodeRequest({ lastBlockHeight: 1, blockLimit: 0, headersOnly: false }),
        ),
    ],
    [
      'blockLimit 401',
      () =>
        getBlocksCodec.decodeRequest(
          getBlocksCodec.encodeRequest({ lastBlockHeight: 1, blockLimit: 401, headersOnly: false }),
        ),
    ],
    [
      '11 common block ids',
      () =>
        getCommonBlocksCodec.decodeRequest(
          getCommonBlocksCodec.encodeRequest({
            ids: Array.from({ length: 11 }, (_, i) => String(i + 1)),
          }),
        ),
    ],
    [
      'a common block id that is not one',
      () => getCommonBlocksCodec.decodeRequest(getCommonBlocksCodec.encodeRequest({ ids: ['x'] })),
    ],
    [
      'a truncated transaction',
      () =>
        postTransactionsCodec.decodeRequest(
          postTransactionsCodec
            .encodeRequest({ transactions: [Buffer.alloc(10)], hops: 0 })
            .subarray(0, -3),
        ),
    ],
    [
      'an empty block',
      () =>
        postBlockCodec.decodeRequest(
          postBlockCodec.encodeRequest({ block: Buffer.alloc(0), hops: 0 }),
        ),
    ],
    [
      'a header without signature',
      () =>
        getBlocksCodec.decodeReply(
          getBlocksCodec.encodeReply([
            { header: { ...header, blockSignature: '' }, transactions: [] },
          ]),
        ),
    ],
    [
      'a status whose heights differ',
      () =>
        getStatusCodec.decodeReply(
          getStatusCodec.encodeReply({ ...status, state: { ...status.state, height: 3 } }),
        ),
    ],
  ])('%s', (_name, act) => {
    expect(act).toThrow(WireError);
  });
});
