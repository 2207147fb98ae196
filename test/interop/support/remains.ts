import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harnessDatabases } from './databases.js';
import { harnessNamespaces } from './namespaces.js';

/**
 * What is still there of run `runId` after its cleanup: namespaces, databases, its socket
 * directory, and processes whose environment or command line names its artifacts directory
 * (every node gets its paths from there). Empty when the cleanup was complete.
 */
export async function remainsOfRun(runId: string, artifacts: string): Promise<string[]> {
  const databasePrefix = runId.replaceAll('-', '_');
  return [
    ...(await harnessNamespaces())
      .filter((name) => name.startsWith(`${runId}-`))
      .map((name) => `namespace ${name}`),
    ...(await harnessDatabases())
      .filter((name) => name.startsWith(`${databasePrefix}_`))
      .map((name) => `database ${name}`),
    ...(existsSync(join(tmpdir(), runId)) ? [`directory ${join(tmpdir(), runId)}`] : []),
    ...processesMentioning(artifacts).map((pid) => `process ${pid}`),
  ];
}

function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (environ.includes(text) || cmdline.includes(text)) pids.push(Number(entry));
    } catch {
      continue; // gone while we looked, or a kernel thread
    }
  }
  return pids;
}
