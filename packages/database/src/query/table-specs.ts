export type ColumnType = 'text' | 'smallint' | 'integer' | 'bigint' | 'utf8-bytea';

export interface ColumnSpec {
  readonly column: string;
  readonly type: ColumnType;
  /** The column may hold NULL (it then sorts after every value ascending). */
  readonly nullable?: true;
}

/** What the compiler may touch in one table: named columns only, never caller text. */
export interface TableSpec {
  readonly table: string;
  readonly columns: Readonly<Record<string, ColumnSpec>>;
  /** The jsonb column reachable as `asset.<path>`. */
  readonly assetColumn?: string;
  /** Whether `address` criteria are meaningful here (through the `transaction_parties` index). */
  readonly addressSearch: boolean;
  readonly defaultOrder: readonly { readonly column: string; readonly direction: 'asc' | 'desc' }[];
  /** Unique ordering appended last, so that pages never overlap or skip rows. */
  readonly tieBreaker: readonly string[];
  /**
   * The table of row counts kept per group of these fields (see the RowTotals migration): a
   * count over the whole table, or over criteria on these fields only, sums it instead.
   */
  readonly totals: { readonly table: string; readonly groupedBy: readonly string[] };
}

export const transactionsTable: TableSpec = {
  table: 'transactions',
  columns: {
    id: { column: 'id', type: 'text' },
    blockId: { column: 'block_id', type: 'text' },
    blockHeight: { column: 'block_height', type: 'integer' },
    sequence: { column: 'sequence', type: 'smallint' },
    version: { column: 'version', type: 'smallint' },
    timestamp: { column: '"timestamp"', type: 'integer' },
    nonce: { column: 'nonce', type: 'bigint' },
    senderPublicKey: { column: 'sender_public_key', type: 'text' },
    recipientId: { column: 'recipient_id', type: 'text', nullable: true },
    type: { column: 'type', type: 'smallint' },
    typeGroup: { column: 'type_group', type: 'integer' },
    vendorField: { column: 'vendor_field', type: 'utf8-bytea', nullable: true },
    amount: { column: 'amount', type: 'bigint' },
    fee: { column: 'fee', type: 'bigint' },
  },
  assetColumn: 'asset',
  addressSearch: true,
  defaultOrder: [
    { column: 'block_height', direction: 'desc' },
    { column: 'sequence', direction: 'desc' },
  ],
  tieBreaker: ['block_height', 'sequence'],
  totals: { table: 'transaction_totals', groupedBy: ['type', 'typeGroup'] },
};

export const blocksTable: TableSpec = {
  table: 'blocks',
  columns: {
    id: { column: 'id', type: 'text' },
    version: { column: 'version', type: 'smallint' },
    timestamp: { column: '"timestamp"', type: 'integer' },
    previousBlock: { column: 'previous_block', type: 'text', nullable: true },
    height: { column: 'height', type: 'integer' },
    numberOfTransactions: { column: 'number_of_transactions', type: 'integer' },
    totalAmount: { column: 'total_amount', type: 'bigint' },
    totalFee: { column: 'total_fee', type: 'bigint' },
    reward: { column: 'reward', type: 'bigint' },
    payloadLength: { column: 'payload_length', type: 'integer' },
    payloadHash: { column: 'payload_hash', type: 'text' },
    generatorPublicKey: { column: 'generator_public_key', type: 'text' },
    blockSignature: { column: 'block_signature', type: 'text' },
  },
  addressSearch: false,
  defaultOrder: [{ column: 'height', direction: 'desc' }],
  tieBreaker: ['height'],
  totals: { table: 'block_totals', groupedBy: ['generatorPublicKey'] },
};
