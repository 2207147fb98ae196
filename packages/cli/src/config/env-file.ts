import { parse as parseEnv } from 'dotenv';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';

/**
 * Sets keys in a .env file, keeping every other line (comments included) as it was: a key
 * already there gets its value on its own line, a new one is appended.
 */
export async function setEnvironment(
  file: string,
  values: Readonly<Record<string, string>>,
): Promise<void> {
  const lines = existsSync(file) ? (await readFile(file, 'utf8')).split('\n') : [];
  const pending = new Map(Object.entries(values));
  const updated = lines.map((line) => {
    const key = keyOf(line);
    const value = key === undefined ? undefined : pending.get(key);
    if (key === undefined || value === undefined) return line;
    pending.delete(key);
    return `${key}=${quote(value)}`;
  });
  while (updated.length > 0 && updated[updated.length - 1] === '') updated.pop();
  for (const [key, value] of pending) updated.push(`${key}=${quote(value)}`);
  await writeFile(file, `${updated.join('\n')}\n`);
}

/** The variables a .env file sets (none when it does not exist). */
export async function readEnvironment(file: string): Promise<Record<string, string>> {
  return existsSync(file) ? parseEnv(await readFile(file, 'utf8')) : {};
}

/** The key a `KEY=value` line sets (dotenv also reads `export KEY=value`); none for comments. */
function keyOf(line: string): string | undefined {
  return /^\s*(?:export\s+)?([\w.-]+)\s*=/.exec(line)?.[1];
}

function quote(value: string): string {
  return /^[\w./:@+-]*$/.test(value) ? value : JSON.stringify(value);
}
