import type { SchemaContribution } from '@lni/database/contracts';
import { Peers1764100000000 } from './migrations/1764100000000-peers.js';

/** The p2p plugin's tables (peers, penalties), registered when the database plugin runs. */
export const p2pSchema: SchemaContribution = {
  migrations: [Peers1764100000000],
};
