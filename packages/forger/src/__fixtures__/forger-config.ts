import type { GeneratedNetwork } from '@lni/crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A forger's config directory for a generated network: its crypto files, and `delegates.json`
 * with the secrets of the delegates it forges for.
 */
export async function writeForgerConfig(
  configDir: string,
  network: GeneratedNetwork,
  secrets: readonly string[],
): Promise<void> {
  await mkdir(join(configDir, 'crypto'), { recursive: true });
  const files = {
    'crypto/network.json': network.network,
    'crypto/milestones.json': network.milestones,
    'crypto/genesisBlock.json': network.genesisBlock,
    'delegates.json': { secrets },
  };
  for (const [file, content] of Object.entries(files)) {
    await writeFile(join(configDir, file), JSON.stringify(content));
  }
}
