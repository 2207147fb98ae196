import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { ConfigError } from '@lni/kernel';
import { extract, pack } from 'tar-stream';
import type { Readable } from 'node:stream';

/**
 * A snapshot on disk: a tar of its manifest and parts, gzip-compressed, both streamed, so that
 * no part is ever held in memory whole.
 */
export async function writeArchive(
  target: string,
  entries: readonly { readonly name: string; readonly file?: string; readonly text?: string }[],
): Promise<void> {
  const tar = pack();
  const written = pipeline(tar, createGzip({ level: 6 }), createWriteStream(target));
  for (const entry of entries) {
    const { text } = entry;
    if (text !== undefined) {
      await new Promise<void>((resolve, reject) =>
        tar.entry({ name: entry.name }, text, (error) => (error ? reject(error) : resolve())),
      );
      continue;
    }
    const file = entry.file as string;
    const { size } = await stat(file);
    const sink = tar.entry({ name: entry.name, size });
    await pipeline(createReadStream(file), sink);
  }
  tar.finalize();
  await written;
}

/** An entry of a snapshot being read: its name and its bytes, to be read once, in order. */
export interface ArchiveEntry {
  readonly name: string;
  readonly stream: Readable;
}

/**
 * The entries of the snapshot `file`, in order. A truncated or corrupted file ends in a
 * ConfigError naming it, whatever layer (gzip, tar) noticed first.
 */
export async function* readArchive(file: string): AsyncGenerator<ArchiveEntry> {
  const source = createReadStream(file);
  const gunzip = createGunzip();
  const tar = extract();
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    tar.destroy(error);
  };
  source.once('error', fail);
  gunzip.once('error', fail);
  source.pipe(gunzip).pipe(tar);
  try {
    for await (const entry of tar) {
      yield { name: entry.header.name, stream: entry as unknown as Readable };
      entry.resume();
    }
  } catch (error) {
    throw damaged(file, failure ?? (error as Error));
  } finally {
    source.destroy();
  }
  if (failure) throw damaged(file, failure);
}

export function damaged(file: string, cause: Error): ConfigError {
  return new ConfigError(
    `${file} is truncated or damaged (${cause.message}): nothing was written`,
    {
      cause,
    },
  );
}

/** The lines of `stream` (UTF-8, '\n'-separated), hashing every byte read into `hash`. */
export async function* hashedLines(stream: Readable, hash: Hash): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    const text = rest + chunk.toString('utf8');
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    yield* lines;
  }
  if (rest !== '') yield rest;
}

export function sha256(): Hash {
  return createHash('sha256');
}
