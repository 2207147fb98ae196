import type { Milestones, VerificationPool } from '@lni/crypto';
import { ConfigError } from '@lni/kernel';
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { ChainVerifier, readChainLine, type ReadBlock } from './chain-verifier.js';
import { checkNetwork, type SnapshotManifest } from './manifest.js';
import { readSnapshot } from './snapshot-reader.js';
import { VerificationProgress } from './verification-progress.js';

export interface VerifyInput {
  readonly file: string;
  /** Where the height checked is kept for a resume (`verificationProgressPath` of the node). */
  readonly progressPath: string;
  readonly network: { readonly name: string; readonly nethash: string };
  readonly genesis: { readonly id: string; readonly transactionIds: readonly string[] };
  readonly milestones: Milestones;
  readonly pool: VerificationPool;
  /** Called with the manifest before the chain is read (to size a progress bar). */
  readonly onManifest?: (manifest: SnapshotManifest) => void;
  /** Called when an earlier run's progress is trusted: signatures are checked above `height`. */
  readonly onResume?: (height: number, manifest: SnapshotManifest) => void;
  readonly onBlocks?: (height: number) => void;
}

/** What the first pass found: the manifest, and how much of the chain it checked itself. */
export interface VerifiedSnapshot {
  readonly manifest: SnapshotManifest;
  /** The height an earlier run had checked, resumed from; 0 when checked from the start. */
  readonly resumedAt: number;
  /** Blocks whose signatures this run checked (the others were checked by the earlier run). */
  readonly signaturesChecked: number;
}

/** Blocks whose signatures go to the workers as one request. */
const BATCH_BLOCKS = 200;
/**
 * Progress is recorded at most this often, so an interruption loses about this much work
 * whatever the blocks hold (a count of blocks is a minute of full blocks, or milliseconds of
 * empty ones).
 */
const RECORD_EVERY_MS = 1_000;

/**
 * The first pass of a restore, which writes nothing to the database: the manifest (format,
 * network), every part's hash and count, and the chain (links, rules and signatures). The
 * height checked is recorded as it goes; a run after an interruption resumes there.
 */
export async function verifySnapshot(input: VerifyInput): Promise<VerifiedSnapshot> {
  const { file } = input;
  const progress = new VerificationProgress(file, input.progressPath);
  const verifier = new ChainVerifier(input.milestones, input.genesis, input.pool, file);
  let resumeAt = 0;
  const manifest = await readSnapshot(file, {
    async manifest(manifest, manifestHash) {
      checkNetwork(manifest, input.network);
      resumeAt = await progress.resumeHeight(manifestHash);
      // Before onManifest, which may start a progress bar on the terminal.
      if (resumeAt > 0) input.onResume?.(resumeAt, manifest);
      input.onManifest?.(manifest);
    },
    async part(part, lines) {
      if (part.name !== 'chain') {
        for await (const _ of lines); // hashed and counted by the reader
        return;
      }
      let batch: ReadBlock[] = [];
      let lineNumber = 0;
      let recordedAt = performance.now();
      const flush = async () => {
        const last = batch[batch.length - 1]?.block.height ?? 0;
        if (last <= resumeAt) verifier.follow(batch);
        else await verifier.verify(batch);
        batch = [];
        input.onBlocks?.(verifier.height);
        if (verifier.height > resumeAt && performance.now() - recordedAt >= RECORD_EVERY_MS) {
          recordedAt = performance.now();
          await progress.record(verifier.height);
        }
      };
      for await (const line of lines) {
        batch.push(readChainLine(line, ++lineNumber, file));
        if (batch.length >= BATCH_BLOCKS) await flush();
      }
      await flush();
    },
  });
  if (verifier.height !== manifest.height || verifier.lastId !== manifest.blockId) {
    throw new ConfigError(
      `${file}: the chain ends at height ${verifier.height} (block ${String(verifier.lastId)}), the manifest says ${manifest.height} (block ${manifest.blockId}): nothing was written`,
    );
  }
  await progress.record(manifest.height);
  return { manifest, resumedAt: resumeAt, signaturesChecked: verifier.signaturesChecked };
}

/** Forgets the recorded progress (after the snapshot was restored). */
export function forgetVerification(progressPath: string): Promise<void> {
  return rm(progressPath, { force: true });
}
