export * from './load-network-config.js';
export type * from './milestone.js';
export * from './milestones.js';
export type * from './network-config.js';
export * from './network-config-error.js';
export type * from './network-params.js';
export type * from './forging-round.js';
export * from './rounds.js';
export * from './slot-clock.js';
