export * from './admin-operation.js';
export * from './admin-operations.js';
export * from './admin-server.js';
export * from './kernel-operations.js';
export * from './log-ring.js';
export * from './node-admin.js';
export * from './status-sections.js';
