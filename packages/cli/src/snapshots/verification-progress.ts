import { readFile, rm, stat, writeFile } from 'node:fs/promises';

/**
 * How far a snapshot's signatures were checked, kept beside the snapshot (`<file>.verified`) so
 * that an interrupted restore resumes there: the blocks below are followed (links, hashes,
 * registrations) without checking their signatures again. It counts only for the same file
 * (size and modification time) with the same manifest.
 */
export class VerificationProgress {
  readonly #path: string;
  #identity = '';

  constructor(private readonly file: string) {
    this.#path = `${file}.verified`;
  }

  /** The height checked before for this exact file and manifest; 0 when none. */
  async resumeHeight(manifestHash: string): Promise<number> {
    const { size, mtimeMs } = await stat(this.file);
    this.#identity = `${size}:${Math.floor(mtimeMs)}:${manifestHash}`;
    try {
      const saved = JSON.parse(await readFile(this.#path, 'utf8')) as {
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

  /** A snapshot in a read-only place is still restored, only without resuming. */
  async record(height: number): Promise<void> {
    await writeFile(this.#path, JSON.stringify({ identity: this.#identity, height })).catch(
      () => undefined,
    );
  }

  async clear(): Promise<void> {
    await rm(this.#path, { force: true });
  }
}
