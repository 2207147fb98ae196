import { InitialSchema1763900000000 } from './1763900000000-initial-schema.js';

/** Every schema migration, oldest first. */
export const schemaMigrations = [InitialSchema1763900000000];
