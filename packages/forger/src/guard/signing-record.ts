import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
  mkdirSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { KernelError } from '@lni/kernel';

/** What one delegate last signed: the forger never signs at or below this height, nor in this slot. */
export interface SignedMark {
  readonly height: number;
  /** Epoch seconds of the slot the block was signed for (its timestamp). */
  readonly slot: number;
  /** The block's id, to tell our own block from another forger's at the same height. */
  readonly id: string;
}

/** The record's file: public key (hex) to its mark. */
type RecordFile = Record<string, SignedMark>;

/** The signing record cannot be read (a damaged file): forging stops rather than guess. */
export class SigningRecordError extends KernelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_FORGER_SIGNING_RECORD', message, options);
  }
}

/** Where a node keeps it: `<data>/forger/signing-record.json`. */
export function signingRecordPath(dataDirectory: string): string {
  return join(dataDirectory, 'forger', 'signing-record.json');
}

/**
 * Per delegate, the last height and slot this forger signed, on disk. Each `mark` is written
 * atomically and durably (temp file, fsync, rename, fsync of the directory) before it returns,
 * so a block whose mark is not on disk has not left the process, even after kill -9.
 */
export class SigningRecord {
  private readonly marks = new Map<string, SignedMark>();

  constructor(readonly file: string) {
    for (const [publicKey, mark] of Object.entries(readRecordFile(file))) {
      this.marks.set(publicKey, mark);
    }
  }

  last(publicKey: string): SignedMark | undefined {
    return this.marks.get(publicKey);
  }

  entries(): ReadonlyMap<string, SignedMark> {
    return this.marks;
  }

  /** Records a block about to be posted; durable when this returns. */
  mark(publicKey: string, mark: SignedMark): void {
    this.marks.set(publicKey, mark);
    this.persist();
  }

  /**
   * Takes another record's marks (moved from another machine), keeping per delegate the higher
   * one: importing an older record never lets a delegate sign again what it signed already.
   * Returns the delegates whose mark moved forward.
   */
  merge(other: ReadonlyMap<string, SignedMark>): string[] {
    const advanced: string[] = [];
    for (const [publicKey, mark] of other) {
      const mine = this.marks.get(publicKey);
      if (mine === undefined || isAhead(mark, mine)) {
        this.marks.set(publicKey, mark);
        advanced.push(publicKey);
      }
    }
    if (advanced.length > 0) this.persist();
    return advanced;
  }

  private persist(): void {
    writeDurably(this.file, `${JSON.stringify(Object.fromEntries(this.marks), null, 2)}\n`);
  }
}

function isAhead(mark: SignedMark, than: SignedMark): boolean {
  return mark.height > than.height || (mark.height === than.height && mark.slot > than.slot);
}

/** Reads a record file (ours or an export); a missing file is an empty record. */
export function readRecordFile(file: string): RecordFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new SigningRecordError(`cannot read ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SigningRecordError(`${file} is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SigningRecordError(`${file} must hold an object of public key to mark`);
  }
  const marks: RecordFile = {};
  for (const [publicKey, value] of Object.entries(parsed)) {
    if (!/^[0-9a-f]{66}$/.test(publicKey)) {
      throw new SigningRecordError(`${file}: "${publicKey}" is not a public key (66 hex)`);
    }
    const mark = value as Partial<SignedMark>;
    if (
      !Number.isSafeInteger(mark.height) ||
      !Number.isSafeInteger(mark.slot) ||
      typeof mark.id !== 'string'
    ) {
      throw new SigningRecordError(`${file}: the mark of ${publicKey} needs height, slot and id`);
    }
    marks[publicKey] = { height: mark.height!, slot: mark.slot!, id: mark.id };
  }
  return marks;
}

/** Temp file, fsync, rename over the file, fsync the directory: the old or the new, never half. */
export function writeDurably(file: string, content: string): void {
  const directory = dirname(file);
  mkdirSync(directory, { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  const directoryFd = openSync(directory, 'r');
  try {
    fsyncSync(directoryFd);
  } finally {
    closeSync(directoryFd);
  }
}
