import { ConfigError } from '@lni/kernel';

export const SNAPSHOT_FORMAT = 'lni-snapshot/1';
export const MANIFEST_ENTRY = 'manifest.json';

/** One file of the snapshot: its SHA-256 (hex), size and the rows (lines) it holds. */
export interface SnapshotPart {
  readonly name: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly rows: number;
}

/** The first entry of a snapshot: what it is of, and how to check the rest. */
export interface SnapshotManifest {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly network: { readonly name: string; readonly nethash: string };
  readonly height: number;
  readonly blockId: string;
  readonly transactions: number;
  readonly lniVersion: string;
  readonly createdAt: string;
  readonly parts: readonly SnapshotPart[];
}

/** The manifest in `text`, or a ConfigError naming what is wrong with it. */
export function parseManifest(text: string, file: string): SnapshotManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(`${file}: the manifest is not JSON: the file is damaged`);
  }
  const manifest = value as Partial<SnapshotManifest>;
  const problem = manifestProblem(manifest);
  if (problem !== undefined) throw new ConfigError(`${file}: manifest ${problem}`);
  return manifest as SnapshotManifest;
}

function manifestProblem(manifest: Partial<SnapshotManifest>): string | undefined {
  if (manifest.format !== SNAPSHOT_FORMAT) {
    return `format: expected ${SNAPSHOT_FORMAT}, got ${String(manifest.format)}`;
  }
  if (typeof manifest.network?.name !== 'string' || typeof manifest.network.nethash !== 'string') {
    return 'network: expected a name and a nethash';
  }
  if (!Number.isSafeInteger(manifest.height) || (manifest.height ?? 0) < 1) {
    return `height: expected a positive integer, got ${String(manifest.height)}`;
  }
  if (typeof manifest.blockId !== 'string') return 'blockId: expected a block id';
  if (!Array.isArray(manifest.parts) || !manifest.parts.some((part) => part.name === 'chain')) {
    return 'parts: expected a list with the chain';
  }
  for (const part of manifest.parts) {
    if (!/^[0-9a-f]{64}$/.test(String(part.sha256))) return `parts.${part.name}.sha256: not a hash`;
  }
  return undefined;
}

/** Refuses a snapshot of another network, naming both. */
export function checkNetwork(
  manifest: SnapshotManifest,
  node: { readonly name: string; readonly nethash: string },
): void {
  if (manifest.network.nethash === node.nethash) return;
  throw new ConfigError(
    `The snapshot is of network ${manifest.network.name} (nethash ${manifest.network.nethash}), this node's network is ${node.name} (nethash ${node.nethash}): refused`,
  );
}
