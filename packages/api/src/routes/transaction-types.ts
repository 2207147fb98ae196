/** Core transaction types (type group 1) by the names GET /api/transactions/types gives them. */
export const TYPE_NAMES: Readonly<Record<string, number>> = {
  Transfer: 0,
  SecondSignature: 1,
  DelegateRegistration: 2,
  Vote: 3,
  MultiSignature: 4,
  Ipfs: 5,
  MultiPayment: 6,
  DelegateResignation: 7,
  HtlcLock: 8,
  HtlcClaim: 9,
  HtlcRefund: 10,
};

/** The key of each core type in fee tables (milestone `staticFees`, /transactions/fees, /node/fees). */
export const FEE_KEYS: readonly string[] = [
  'transfer',
  'secondSignature',
  'delegateRegistration',
  'vote',
  'multiSignature',
  'ipfs',
  'multiPayment',
  'delegateResignation',
  'htlcLock',
  'htlcClaim',
  'htlcRefund',
];

/** The fee key of a type, or its number as a string for a type this node does not name. */
export const feeKeyOf = (typeGroup: number, type: number): string =>
  (typeGroup === 1 ? FEE_KEYS[type] : undefined) ?? String(type);
