import Joi from 'joi';
import type { Logger } from '../logging/logger.js';
import { adminStream, answerThen, type AdminOperation } from './admin-operation.js';
import type { LogRecord } from '../logging/pretty-stream.js';
import type { LogRing } from './log-ring.js';
import type { StatusSections } from './status-sections.js';

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type AdminLogLevel = keyof typeof LEVELS;

/** How many WARN/ERROR lines `status` shows under `lastErrors`. */
const LAST_ERRORS = 5;

export interface KernelOperationsDependencies {
  readonly sections: StatusSections;
  readonly ring: LogRing;
  readonly logger: Logger;
  /** What the node is: network, mode, plugins, data directory. */
  readonly node: Readonly<Record<string, unknown>>;
  /** Starts the node's clean stop; called once the answer has been sent. */
  readonly stop: () => void;
}

/** The operations the kernel itself offers: `status`, `stop` and `log`. */
export function kernelOperations(deps: KernelOperationsDependencies): AdminOperation<object>[] {
  const startedAt = Date.now();
  const status: AdminOperation = {
    name: 'status',
    description: 'the node at a glance: height, sync, peers, pool, forging and the last errors',
    run: async () => ({
      node: { ...deps.node, pid: process.pid, uptimeSeconds: (Date.now() - startedAt) / 1000 },
      ...(await deps.sections.read()),
      lastErrors: deps.ring.recent(LEVELS.warn, LAST_ERRORS).map(logLine),
    }),
  };
  const stop: AdminOperation = {
    name: 'stop',
    description: 'stop the node cleanly (answers first, then stops every plugin)',
    run: () => {
      deps.logger.info('Stop requested over the admin socket');
      // Once the answer is sent: the stop closes the socket the answer goes through.
      return answerThen({ stopping: true, pid: process.pid }, deps.stop);
    },
  };
  const log: AdminOperation<{ level: AdminLogLevel; lines: number; follow: boolean }> = {
    name: 'log',
    description: 'recent log lines from memory, at a level and above; follow streams new ones',
    args: Joi.object({
      level: Joi.string()
        .valid(...Object.keys(LEVELS))
        .default('info'),
      lines: Joi.number().integer().min(1).max(10_000).default(100),
      follow: Joi.boolean().default(false),
    }),
    run: ({ level, lines, follow }): unknown => {
      const minimum = LEVELS[level];
      const recent = deps.ring.recent(minimum, lines).map(logLine);
      if (!follow) return recent;
      return adminStream((send) => {
        for (const line of recent) send(line);
        return deps.ring.follow((record) => {
          if (record.level >= minimum) send(logLine(record));
        });
      });
    },
  };
  return [status, stop, log as unknown as AdminOperation<object>];
}

/**
 * A record as the admin answers it: bunyan's JSON line (numeric `level`, `msg`, ISO `time`, the
 * fields) without what is the same on every line of one process.
 */
function logLine(record: LogRecord): LogRecord {
  const { v: _v, hostname: _hostname, pid: _pid, name: _name, ...line } = record;
  const time = record.time instanceof Date ? record.time.toISOString() : record.time;
  return { ...line, time };
}
