import bunyan from 'bunyan';
import type { Writable } from 'node:stream';
import { ConfigError } from '../errors.js';
import { LogFile } from './log-file.js';
import { PrettyStream } from './pretty-stream.js';

export type Logger = bunyan;
export type LogLevel = bunyan.LogLevelString;

export interface LoggerOptions {
  readonly level?: LogLevel;
  /** Where records go; a terminal gets readable lines, anything else JSON lines. */
  readonly out?: Writable & { isTTY?: boolean };
  readonly pretty?: boolean;
}

/** The node's root logger; plugins get children of it carrying `{ plugin }`. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const out = options.out ?? process.stdout;
  const pretty = options.pretty ?? out.isTTY === true;
  const level = options.level ?? 'info';
  return bunyan.createLogger({
    name: 'lni',
    serializers: bunyan.stdSerializers,
    streams: [
      pretty
        ? { type: 'raw', level, stream: new PrettyStream(out) as unknown as Writable }
        : { level, stream: out },
    ],
  });
}

/** Adds the JSON log file; called only once configuration is known to be valid. */
export function addLogFile(logger: Logger, file: string, level: LogLevel = 'debug'): void {
  deferLogFile(logger, level).open(file);
}

/** Adds a log file to open later (`open(path)`): records wait in memory until then. */
export function deferLogFile(logger: Logger, level: LogLevel = 'debug'): LogFile {
  const file = new LogFile();
  logger.addStream({ type: 'stream', stream: file, level });
  return file;
}

export function parseLogLevel(value: string | undefined): LogLevel {
  const levels: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
  const level = (value ?? 'info').toLowerCase() as LogLevel;
  if (!levels.includes(level)) {
    throw new ConfigError(`CORE_LOG_LEVEL must be one of ${levels.join(', ')}, not '${value}'`);
  }
  return level;
}

/** Flushes and closes the log file so that nothing is lost when the process exits. */
export async function closeLogFiles(logger: Logger): Promise<void> {
  const streams = (
    logger as unknown as { streams: { type: string; stream: NodeJS.WritableStream }[] }
  ).streams;
  await Promise.all(
    streams
      .filter(({ type, stream }) => type === 'file' || stream instanceof LogFile)
      .map(({ stream }) => new Promise<void>((resolve) => stream.end(resolve))),
  );
}
