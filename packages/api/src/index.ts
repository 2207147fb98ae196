export * from './config.js';
export * from './pagination/envelope.js';
export * from './plugin.js';
export * from './query/fields.js';
export * from './query/index-query.js';
export * from './query/resource-query.js';
export * from './server/api-server.js';
export * from './server/route-registry.js';
export { apiPlugin as default } from './plugin.js';
