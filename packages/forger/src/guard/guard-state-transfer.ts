import { existsSync } from 'node:fs';
import {
  readRecordFile,
  SigningRecordError,
  writeDurably,
  type SigningRecord,
} from './signing-record.js';

/**
 * Moving a forger to another machine: `exportGuardState` writes the record where asked,
 * `importGuardState` takes a file written so, keeping per delegate the higher mark (a copy older
 * than what this machine signed never lowers it). Both return what they did, for the command.
 */
export function exportGuardState(record: SigningRecord, file: string): number {
  writeDurably(file, `${JSON.stringify(Object.fromEntries(record.entries()), null, 2)}\n`);
  return record.entries().size;
}

export function importGuardState(
  record: SigningRecord,
  file: string,
): { readonly advanced: readonly string[]; readonly kept: number } {
  if (!existsSync(file)) throw new SigningRecordError(`${file}: no such file to import`);
  const incoming = new Map(Object.entries(readRecordFile(file)));
  const advanced = record.merge(incoming);
  return { advanced, kept: incoming.size - advanced.length };
}
