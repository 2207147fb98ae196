import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportGuardState, importGuardState } from './guard-state-transfer.js';
import { SigningRecord, SigningRecordError, signingRecordPath } from './signing-record.js';

const alice = `02${'a'.repeat(64)}`;
const bob = `03${'b'.repeat(64)}`;
const signer = fileURLToPath(new URL('../__fixtures__/sign-forever.ts', import.meta.url));

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'lni-signing-record-'));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

describe('signing record', () => {
  it('is read back by the next process: what a delegate signed survives a restart', () => {
    const file = signingRecordPath(directory);
    new SigningRecord(file).mark(alice, { height: 7, slot: 56, id: 'abc' });
    expect(new SigningRecord(file).last(alice)).toEqual({ height: 7, slot: 56, id: 'abc' });
    expect(new SigningRecord(file).last(bob)).toBeUndefined();
  });

  it('refuses a damaged file, naming it, rather than forget what was signed', async () => {
    const file = signingRecordPath(directory);
    new SigningRecord(file).mark(alice, { height: 7, slot: 56, id: 'abc' });
    await writeFile(file, '{"02aa": ');
    expect(() => new SigningRecord(file)).toThrow(SigningRecordError);
    expect(() => new SigningRecord(file)).toThrow(file);
  });

  it('holds every mark it reported as written when the process is killed with SIGKILL', async () => {
    const file = signingRecordPath(directory);
    const child = spawn(process.execPath, ['--import', 'tsx', signer, file, alice], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let reported = 0;
    const killed = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_, s) => resolve(s)),
    );
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = chunk.trim().split('\n');
      reported = Number(lines[lines.length - 1]);
      if (reported >= 40) child.kill('SIGKILL');
    });
    expect(await killed).toBe('SIGKILL');
    // The file is whole (JSON) and at least as far as the last mark the child said was written.
    JSON.parse(await readFile(file, 'utf8'));
    const mark = new SigningRecord(file).last(alice);
    expect(mark?.height).toBeGreaterThanOrEqual(reported);
    expect(mark?.slot).toBe((mark?.height ?? 0) * 8);
  }, 30_000);
});

describe('moving the record to another machine', () => {
  it('exports and imports, keeping per delegate the higher mark', () => {
    const old = new SigningRecord(join(directory, 'old', 'record.json'));
    old.mark(alice, { height: 10, slot: 80, id: 'a10' });
    old.mark(bob, { height: 3, slot: 24, id: 'b3' });
    const file = join(directory, 'moved.json');
    expect(exportGuardState(old, file)).toBe(2);

    const here = new SigningRecord(join(directory, 'new', 'record.json'));
    here.mark(bob, { height: 9, slot: 72, id: 'b9' });
    const { advanced, kept } = importGuardState(here, file);
    expect(advanced).toEqual([alice]);
    expect(kept).toBe(1);
    expect(here.last(alice)?.height).toBe(10);
    // An older copy never lowers what this machine signed, and it is on disk.
    expect(new SigningRecord(here.file).last(bob)?.height).toBe(9);
  });

  it('says so when the file to import does not exist', () => {
    const here = new SigningRecord(join(directory, 'record.json'));
    expect(() => importGuardState(here, join(directory, 'nope.json'))).toThrow(/no such file/);
  });
});
