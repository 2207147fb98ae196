import protobuf from 'protobufjs';

/**
 * The protobuf messages of ARK Core 3.x's public P2P routes, written from the field numbers and
 * types ARK's peers put on the wire (package names do not travel). LNI's own additions use field
 * numbers from 100 up: ARK's decoders skip fields they do not know, so ARK peers ignore them.
 */
const SOURCE = `
syntax = "proto3";

message Headers {
  string version = 1;
  // LNI: the P2P port the sender listens on, so it is dialled back there (ARK: always its own).
  uint32 port = 100;
}

message BlockHeader {
  string id = 1;
  string idHex = 2;
  uint32 version = 3;
  uint32 timestamp = 4;
  string previousBlock = 5;
  string previousBlockHex = 6;
  uint32 height = 7;
  uint32 numberOfTransactions = 8;
  string totalAmount = 9;
  string totalFee = 10;
  string reward = 11;
  uint32 payloadLength = 12;
  string payloadHash = 13;
  string generatorPublicKey = 14;
  string blockSignature = 15;
  // getBlocks only: per transaction, a u32 big-endian length then the serialized transaction.
  bytes transactions = 16;
}

message GetStatusRequest { Headers headers = 1; }
message GetStatusResponse {
  message State {
    uint32 height = 1;
    bool forgingAllowed = 2;
    uint32 currentSlot = 3;
    BlockHeader header = 4;
  }
  message Token { string name = 1; string symbol = 2; }
  message Network {
    string name = 1;
    string nethash = 2;
    string explorer = 3;
    Token token = 4;
    uint32 version = 5;
  }
  message Plugin { uint32 port = 1; bool enabled = 2; bool estimateTotalCount = 3; }
  message Config {
    string version = 1;
    Network network = 2;
    map<string, Plugin> plugins = 3;
  }
  State state = 1;
  Config config = 2;
}

message GetPeersRequest { Headers headers = 1; }
message GetPeersResponse {
  message Peer { string ip = 1; uint32 port = 2; }
  repeated Peer peers = 1;
}

message GetCommonBlocksRequest {
  repeated string ids = 1;
  Headers headers = 2;
}
message GetCommonBlocksResponse {
  message Common { uint32 height = 1; string id = 2; }
  Common common = 1;
}

message GetBlocksRequest {
  uint32 lastBlockHeight = 1;
  uint32 blockLimit = 2;
  bool headersOnly = 3;
  bool serialized = 4;
  Headers headers = 5;
}

message PostBlockRequest {
  bytes block = 1;
  Headers headers = 2;
  // LNI: how many nodes passed the block on before the sender.
  uint32 hops = 100;
}
message PostBlockResponse {
  bool status = 1;
  uint32 height = 2;
  // LNI: the ledger's verdict (accepted, known, rejected) and why it did not take the block.
  string verdict = 100;
  string reason = 101;
}

message PostTransactionsRequest {
  // Per transaction, a u32 big-endian length then the serialized transaction.
  bytes transactions = 1;
  Headers headers = 2;
  uint32 hops = 100;
}
message PostTransactionsResponse {
  message Invalid { uint32 index = 1; string reason = 2; }
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
