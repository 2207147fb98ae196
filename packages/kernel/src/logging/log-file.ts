import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';

/**
 * The node's JSON log file, added to the logger before the plugins register (their child
 * loggers copy the logger's streams of that moment) but opened only once start-up is known to
 * go ahead: until `open`, records wait in memory, so a start-up refused earlier writes nothing,
 * and once open the file still holds every record of the start.
 */
export class LogFile extends Writable {
  private file: WriteStream | undefined;
  private readonly pending: Buffer[] = [];

  open(path: string): void {
    mkdirSync(dirname(path), { recursive: true });
    this.file = createWriteStream(path, { flags: 'a' });
    for (const chunk of this.pending.splice(0)) this.file.write(chunk);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    if (this.file) {
      this.file.write(chunk, done);
      return;
    }
    this.pending.push(chunk);
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.file) this.file.end(done);
    else done();
  }
}
