import Joi from 'joi';
import { zeroAmount } from '../schema-rules.js';
import { TransactionType, TransactionTypeGroup } from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

/** Type 7: a delegate leaves the delegate list for good; no asset. */
export const delegateResignationHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.DelegateResignation,
  name: 'DelegateResignation',
  feeKey: 'delegateResignation',
  defaultStaticFee: 2_500_000_000n,
  versions: [2],
  hasVendorField: false,
  writeAsset() {},
  readAsset: () => ({ amount: 0n }),
  schemaKeys: () => ({ amount: zeroAmount(), asset: Joi.object().max(0) }),
};
