import type Joi from 'joi';
import type { Milestone } from '../networks/milestone.js';
import type { ByteReader } from './byte-reader.js';
import type { ByteWriter } from './byte-writer.js';
import type { TransactionData, TransactionType, TransactionTypeGroup } from './transaction-data.js';

/** What validation of a transaction needs to know about the network and height. */
export interface ValidationContext {
  readonly milestone: Milestone;
  readonly pubKeyHash: number;
}

/** Upper bounds on declared counts and lengths, checked before anything is allocated. */
export interface DeserializationLimits {
  /** Defaults to 255 (the most a length byte can say). */
  readonly maxVendorFieldLength: number;
  /** Defaults to 65535 (the u16 count); pass the milestone's multiPaymentLimit to be strict. */
  readonly maxMultiPayments: number;
  /** Defaults to 16, ARK 3.0's most participants. */
  readonly maxMultiSignatureKeys: number;
}

/** The fields a type's asset section carries, as read back from bytes. */
export type AssetFields = Pick<TransactionData, 'amount' | 'recipientId' | 'expiration' | 'asset'>;

/**
 * One row of the transaction-type table (registry.ts), everything type-specific about a type:
 * its group and number, its name, its fee key, its asset bytes (AIP-11 and, for the types
 * genesis blocks contain, the version-1 signing bytes), its schema and its static fee.
 */
export interface TransactionTypeHandler {
  readonly typeGroup: TransactionTypeGroup;
  readonly type: TransactionType;
  /** ARK's name of the type (`Transfer`, `HtlcLock`), as GET /api/transactions/types lists it. */
  readonly name: string;
  /** The key of the type in fee tables: the milestones' `fees.staticFees`, the fee routes. */
  readonly feeKey: string;
  /** ARK 3.0's fee when the milestone names none. */
  readonly defaultStaticFee: bigint;
  readonly versions: readonly (1 | 2)[];
  readonly hasVendorField: boolean;
  writeAsset(data: TransactionData, writer: ByteWriter): void;
  /** Reads the asset section, refusing counts beyond `limits`. */
  readAsset(reader: ByteReader, limits: DeserializationLimits): AssetFields;
  /** Version 1 only: the asset part of the legacy signing bytes (ARK's getBytesV1). */
  legacyAssetBytes?(data: TransactionData): Buffer;
  /** Joi rules for the fields this type constrains (merged over the common ones). */
  schemaKeys(context: ValidationContext): Joi.PartialSchemaMap;
  /** The static fee multiplier (multisignature registration: participants + 1). */
  feeMultiplier?(data: TransactionData): bigint;
}
