import { ConfigError, KernelError } from '@lni/kernel';
import { damaged, hashedLines, readArchive, sha256 } from './archive.js';
import {
  MANIFEST_ENTRY,
  parseManifest,
  type SnapshotManifest,
  type SnapshotPart,
} from './manifest.js';

/** What a pass over a snapshot does with the manifest and each part's lines. */
export interface SnapshotVisitor {
  manifest(manifest: SnapshotManifest, manifestHash: string): Promise<void>;
  part(part: SnapshotPart, lines: AsyncIterable<string>): Promise<void>;
}

/**
 * One streaming pass over the snapshot `file`: the manifest first, then each part it lists,
 * whose bytes must hash to the manifest's SHA-256 and whose line count must match. Entries the
 * manifest does not list, parts missing, a truncated or altered file: a ConfigError naming it.
 */
export async function readSnapshot(
  file: string,
  visitor: SnapshotVisitor,
): Promise<SnapshotManifest> {
  try {
    return await readEntries(file, visitor);
  } catch (error) {
    // A read error surfaces wherever the stream was being consumed, often inside a visitor.
    if (error instanceof KernelError) throw error;
    throw damaged(file, error as Error);
  }
}

async function readEntries(file: string, visitor: SnapshotVisitor): Promise<SnapshotManifest> {
  let manifest: SnapshotManifest | undefined;
  const seen = new Set<string>();
  for await (const entry of readArchive(file)) {
    if (manifest === undefined) {
      if (entry.name !== MANIFEST_ENTRY) {
        throw new ConfigError(`${file}: not an LNI snapshot (its first entry is ${entry.name})`);
      }
      const hash = sha256();
      let text = '';
      for await (const line of hashedLines(entry.stream, hash)) text += `${line}\n`;
      manifest = parseManifest(text, file);
      await visitor.manifest(manifest, hash.digest('hex'));
      continue;
    }
    const part = manifest.parts.find((candidate) => `${candidate.name}.ndjson` === entry.name);
    if (part === undefined)
      throw new ConfigError(`${file}: unexpected entry ${entry.name}: damaged`);
    const hash = sha256();
    let rows = 0;
    await visitor.part(
      part,
      (async function* () {
        for await (const line of hashedLines(entry.stream, hash)) {
          rows += 1;
          yield line;
        }
      })(),
    );
    const digest = hash.digest('hex');
    if (digest !== part.sha256 || rows !== part.rows) {
      throw new ConfigError(
        `${file}: part ${part.name} does not match its manifest (SHA-256 ${digest}, ${rows} lines; expected ${part.sha256}, ${part.rows}): the file was altered or damaged; nothing was written`,
      );
    }
    seen.add(part.name);
  }
  if (manifest === undefined) throw new ConfigError(`${file}: empty snapshot: nothing was written`);
  const missing = manifest.parts.filter((part) => !seen.has(part.name)).map((part) => part.name);
  if (missing.length > 0) {
    throw new ConfigError(
      `${file}: part(s) ${missing.join(', ')} missing: the file is truncated; nothing was written`,
    );
  }
  return manifest;
}
