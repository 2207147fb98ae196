import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { arkHome, completeInstallation } from './ark-install.js';
import { postgresSocketProblem } from './databases.js';
import { KERNEL_BIN } from './lni-node.js';
import { PREFIX } from './owner.js';

/** Why the interop scenarios cannot run on this machine, or undefined when they can. */
export async function interopSkipReason(): Promise<string | undefined> {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'needs root to create network namespaces';
  const probe = `${PREFIX}-probe-${process.pid}`;
  try {
    execFileSync('ip', ['netns', 'add', probe], { stdio: 'pipe' });
    execFileSync('ip', ['netns', 'del', probe], { stdio: 'pipe' });
  } catch (error) {
    return `'ip netns add' fails here (${String(error).split('\n')[0]})`;
  }
  const postgres = postgresSocketProblem();
  if (postgres) return postgres;
  if (!(await completeInstallation())) {
    return `ARK Core is not installed in ${arkHome()}: run \`npm run interop:install\``;
  }
  if (!existsSync(KERNEL_BIN)) return 'LNI is not built: run `npm run build`';
  return undefined;
}
