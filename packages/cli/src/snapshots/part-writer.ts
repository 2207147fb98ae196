import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { sha256 } from './archive.js';
import type { SnapshotPart } from './manifest.js';

/**
 * Writes `lines` to `<directory>/<name>.ndjson`, one per line, hashing what it writes and
 * waiting for the disk when the stream's buffer is full (memory stays bounded).
 */
export async function writePart(
  directory: string,
  name: string,
  lines: AsyncIterable<string>,
  onRow?: () => void,
): Promise<SnapshotPart & { readonly file: string }> {
  const file = join(directory, `${name}.ndjson`);
  const out = createWriteStream(file);
  const hash = sha256();
  let bytes = 0;
  let rows = 0;
  try {
    for await (const line of lines) {
      const chunk = Buffer.from(`${line}\n`, 'utf8');
      hash.update(chunk);
      bytes += chunk.length;
      rows += 1;
      onRow?.();
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return { name, file, sha256: hash.digest('hex'), bytes, rows };
}
