import bunyan from 'bunyan';
import type { Logger, LogLevel } from '../logging/logger.js';

/** A logger that keeps every record for assertions and prints those at `printLevel` and above. */
export function captureLogs(printLevel: LogLevel): {
  logger: Logger;
  records: Record<string, unknown>[];
} {
  const buffer = new bunyan.RingBuffer({ limit: 10_000 });
  const logger = bunyan.createLogger({
    name: 'lni-test',
    streams: [
      { type: 'raw', level: 'trace', stream: buffer },
      { level: printLevel, stream: process.stderr },
    ],
  });
  return { logger, records: buffer.records as Record<string, unknown>[] };
}
