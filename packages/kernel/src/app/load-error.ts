import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describeError } from '../errors.js';

/**
 * Why a plugin module failed to import, on one line. Node's SyntaxError from an ES module
 * carries no file nor line, so the entry file is checked once more (`node --check`) to say
 * where the mistake is when it is there.
 */
export function describeLoadError(error: unknown, url: string): string {
  const reason = oneLine(
    error instanceof SyntaxError ? `SyntaxError: ${error.message}` : describeError(error),
  );
  if (!(error instanceof SyntaxError) || !url.startsWith('file:')) return reason;
  const where = syntaxErrorLocation(fileURLToPath(url));
  return where === undefined ? reason : `${reason} (${where})`;
}

/** `file:line` of the entry file's syntax error, or undefined when the file parses. */
function syntaxErrorLocation(file: string): string | undefined {
  const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
  if (check.status === 0) return undefined;
  return check.stderr
    .split('\n')
    .find((line) => line.startsWith(`${file}:`))
    ?.trim();
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
