// The block transaction other plugins join is part of the ledger's contract.
export type { BlockCommit, CommittedBlock } from '../contracts/storage.js';
