import protobuf from 'protobufjs';

/**
 * The protobuf messages of ARK Core 3.x's public P2P routes, written from the field numbers and
 * types ARK's peers put on the wire (package names do not travel). LNI's own additions use field
 * numbers from 100 up: ARK's decoders skip fields they do not know, so ARK peers ignore them.
 *
 * ARK's fields are `optional` (explicit presence) because ARK's encoder writes every field that
 * is set, zero values included, and its schemas require some of them (`forgingAllowed` false, a
 * genesis `timestamp` 0, an empty `explorer`): left off the wire as proto3 zero values, they
 * would be missing on ARK's side and ARK would refuse the reply.
 */
const SOURCE = `
syntax = "proto3";

message Headers {
  optional string version = 1;
  // LNI: the P2P port the sender listens on, so it is dialled back there (ARK: always its own).
  uint32 port = 100;
}

message BlockHeader {
  optional string id = 1;
  optional string idHex = 2;
  optional uint32 version = 3;
  optional uint32 timestamp = 4;
  optional string previousBlock = 5;
  optional string previousBlockHex = 6;
  optional uint32 height = 7;
  optional uint32 numberOfTransactions = 8;
  optional string totalAmount = 9;
  optional string totalFee = 10;
  optional string reward = 11;
  optional uint32 payloadLength = 12;
  optional string payloadHash = 13;
  optional string generatorPublicKey = 14;
  optional string blockSignature = 15;
  // getBlocks only: per transaction, a u32 big-endian length then the serialized transaction.
  optional bytes transactions = 16;
}

message GetStatusRequest { Headers headers = 1; }
message GetStatusResponse {
  message State {
    optional uint32 height = 1;
    optional bool forgingAllowed = 2;
    optional uint32 currentSlot = 3;
    BlockHeader header = 4;
  }
  message Token { optional string name = 1; optional string symbol = 2; }
  message Network {
    optional string name = 1;
    optional string nethash = 2;
    optional string explorer = 3;
    Token token = 4;
    optional uint32 version = 5;
  }
  message Plugin { optional uint32 port = 1; optional bool enabled = 2; optional bool estimateTotalCount = 3; }
  message Config {
    optional string version = 1;
    Network network = 2;
    map<string, Plugin> plugins = 3;
  }
  State state = 1;
  Config config = 2;
}

message GetPeersRequest { Headers headers = 1; }
message GetPeersResponse {
  message Peer { optional string ip = 1; optional uint32 port = 2; }
  repeated Peer peers = 1;
}

message GetCommonBlocksRequest {
  repeated string ids = 1;
  Headers headers = 2;
}
message GetCommonBlocksResponse {
  message Common { optional uint32 height = 1; optional string id = 2; }
  Common common = 1;
}

message GetBlocksRequest {
  optional uint32 lastBlockHeight = 1;
  optional uint32 blockLimit = 2;
  optional bool headersOnly = 3;
  optional bool serialized = 4;
  Headers headers = 5;
}

message PostBlockRequest {
  optional bytes block = 1;
  Headers headers = 2;
  // LNI: how many nodes passed the block on before the sender.
  uint32 hops = 100;
}
message PostBlockResponse {
  optional bool status = 1;
  optional uint32 height = 2;
  // LNI: the ledger's verdict (accepted, known, rejected) and why it did not take the block.
  string verdict = 100;
  string reason = 101;
}

message PostTransactionsRequest {
  // Per transaction, a u32 big-endian length then the serialized transaction.
  optional bytes transactions = 1;
  Headers headers = 2;
  uint32 hops = 100;
}
message PostTransactionsResponse {
  message Invalid { optional uint32 index = 1; optional string reason = 2; }
  repeated string accept = 1;
  // LNI: the posted transactions the pool refused, by index, with the reason.
  repeated Invalid invalid = 100;
}
`;

const root = protobuf.parse(SOURCE, { keepCase: true }).root;

/** The message types by name, resolved once. */
export const messageTypes = {
  GetStatusRequest: root.lookupType('GetStatusRequest'),
  GetStatusResponse: root.lookupType('GetStatusResponse'),
  GetPeersRequest: root.lookupType('GetPeersRequest'),
  GetPeersResponse: root.lookupType('GetPeersResponse'),
  GetCommonBlocksRequest: root.lookupType('GetCommonBlocksRequest'),
  GetCommonBlocksResponse: root.lookupType('GetCommonBlocksResponse'),
  GetBlocksRequest: root.lookupType('GetBlocksRequest'),
  BlockHeader: root.lookupType('BlockHeader'),
  PostBlockRequest: root.lookupType('PostBlockRequest'),
  PostBlockResponse: root.lookupType('PostBlockResponse'),
  PostTransactionsRequest: root.lookupType('PostTransactionsRequest'),
  PostTransactionsResponse: root.lookupType('PostTransactionsResponse'),
} as const;

export type MessageTypeName = keyof typeof messageTypes;
