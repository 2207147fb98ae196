import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** Where a node keeps how far a restore checked a snapshot: its own data directory. */
export function verificationProgressPath(dataDirectory: string): string {
  return join(dataDirectory, 'snapshot-restore.progress');
}

/**
 * How far a snapshot's signatures were checked, so that an interrupted restore resumes there:
 * the blocks below are followed (links, hashes, registrations) without checking their
 * signatures again. Kept in the node's data directory, which only the node's user writes (not
 * beside the snapshot, where whoever supplied the file could write a record that skips the
 * checks). It counts only for the same file (path, size, modification time) with the same
 * manifest.
 */
export class VerificationProgress {
  #identity = '';

  constructor(
    private readonly file: string,
    private readonly path: string,
  ) {}

  /** The height checked before for this exact file and manifest; 0 when none. */
  async resumeHeight(manifestHash: string): Promise<number> {
    const { size, mtimeMs } = await stat(this.file);
    this.#identity = `${resolve(this.file)}:${size}:${Math.floor(mtimeMs)}:${manifestHash}`;
    try {
      const saved = JSON.parse(await readFile(this.path, 'utf8')) as {
        identity: string;
        height: number;
      };
      return saved.identity === this.#identity && Number.isSafeInteger(saved.height)
        ? saved.height
        : 0;
    } catch {
      return 0;
    }
  }

  /** A data directory that cannot be written still restores, only without resuming. */
  async record(height: number): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true })
      .then(() => writeFile(this.path, JSON.stringify({ identity: this.#identity, height })))
      .catch(() => undefined);
  }
}
