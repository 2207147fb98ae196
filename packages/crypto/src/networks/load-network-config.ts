import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Joi from 'joi';
import type { MilestoneEntry } from './milestone.js';
import type { NetworkConfig, NetworkExceptions } from './network-config.js';
import { NetworkConfigError, type ConfigProblem } from './network-config-error.js';
import type { NetworkParams } from './network-params.js';
import {
  exceptionsSchema,
  firstMilestoneSchema,
  genesisBlockSchema,
  milestonesSchema,
  networkSchema,
} from './schemas.js';

/**
 * Loads and validates a network's `crypto/` directory in ARK 3.0's layout (network.json,
 * milestones.json, genesisBlock.json, optional exceptions.json). Errors name file, key, reason.
 */
export function loadNetworkConfig(cryptoDir: string): NetworkConfig {
  const network = validate<NetworkParams>(
    networkSchema,
    readJson(cryptoDir, 'network.json'),
    cryptoDir,
    'network.json',
  );
  const milestones = validate<MilestoneEntry[]>(
    milestonesSchema,
    readJson(cryptoDir, 'milestones.json'),
    cryptoDir,
    'milestones.json',
  );
  checkMilestones(milestones, join(cryptoDir, 'milestones.json'));
  const genesisBlock = validate<Record<string, unknown>>(
    genesisBlockSchema,
    readJson(cryptoDir, 'genesisBlock.json'),
    cryptoDir,
    'genesisBlock.json',
  );
  if (genesisBlock.payloadHash !== network.nethash) {
    throw new NetworkConfigError(join(cryptoDir, 'network.json'), [
      {
        key: 'nethash',
        reason: `must equal the genesis block's payloadHash ${String(genesisBlock.payloadHash)}`,
      },
    ]);
  }
  const exceptionsRaw = readJson(cryptoDir, 'exceptions.json', { optional: true }) ?? {};
  const exceptions = validate<NetworkExceptions>(
    exceptionsSchema,
    exceptionsRaw,
    cryptoDir,
    'exceptions.json',
  );
  return { network, milestones, genesisBlock, exceptions };
}

function readJson(dir: string, name: string, options: { optional?: boolean } = {}): unknown {
  const file = join(dir, name);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.optional) return undefined;
    const reason =
      code === 'ENOENT' ? 'file not found' : `cannot read (${(error as Error).message})`;
    throw new NetworkConfigError(file, [{ key: '', reason }], { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new NetworkConfigError(
      file,
      [{ key: '', reason: `not valid JSON: ${(error as Error).message}` }],
      {
        cause: error,
      },
    );
  }
}

function validate<T>(schema: Joi.Schema, value: unknown, dir: string, name: string): T {
  const result = schema.validate(value, { abortEarly: false, convert: false });
  if (result.error) throw new NetworkConfigError(join(dir, name), problemsOf(result.error));
  return result.value as T;
}

function problemsOf(error: Joi.ValidationError, prefix = ''): ConfigProblem[] {
  return error.details.map((detail) => ({
    key: prefix + formatPath(detail.path),
    reason: detail.message.replace(/^"[^"]*" /, ''),
  }));
}

function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`,
    )
    .join('');
}

/** ARK's rules across entries: one entry per height, the first at height 1 with every base key,
 * and the number of delegates changing only where a round of the previous size ends. */
function checkMilestones(entries: readonly MilestoneEntry[], file: string): void {
  const problems: ConfigProblem[] = [];
  const indexed = entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.height - b.entry.height);
  for (let i = 1; i < indexed.length; i++) {
    const { entry, index } = indexed[i]!;
    if (entry.height === indexed[i - 1]!.entry.height) {
      problems.push({
        key: `[${index}].height`,
        reason: `height ${entry.height} appears more than once`,
      });
    }
  }
  const first = indexed[0]!;
  const firstResult = firstMilestoneSchema.validate(first.entry, {
    abortEarly: false,
    convert: false,
  });
  if (firstResult.error) problems.push(...problemsOf(firstResult.error, `[${first.index}].`));
  let delegates: { height: number; count: number } | undefined;
  for (const { entry, index } of indexed) {
    const count = entry.activeDelegates;
    if (typeof count !== 'number') continue;
    if (
      delegates &&
      count !== delegates.count &&
      (entry.height - delegates.height) % delegates.count !== 0
    ) {
      problems.push({
        key: `[${index}].activeDelegates`,
        reason: `changes at height ${entry.height}, which does not start a round of ${delegates.count} delegates begun at height ${delegates.height}`,
      });
    }
    delegates = { height: entry.height, count };
  }
  if (problems.length > 0) throw new NetworkConfigError(file, problems);
}
