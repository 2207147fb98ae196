import Joi from 'joi';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SeedListError } from '../errors.js';

export interface SeedPeer {
  readonly ip: string;
  readonly port: number;
}

const seedListSchema = Joi.object({
  list: Joi.array()
    .items(
      Joi.object({
        ip: Joi.string().ip({ cidr: 'forbidden' }).required(),
        port: Joi.number().port().required(),
      }),
    )
    .required(),
}).unknown(true);

/** Reads `peers.json` (`{ "list": [{ "ip", "port" }] }`) from the config directory; none is an empty list. */
export async function loadSeedList(configDirectory: string): Promise<SeedPeer[]> {
  const file = join(configDirectory, 'peers.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SeedListError(`${file}: cannot read (${(error as Error).message})`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SeedListError(`${file}: not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const { error, value } = seedListSchema.validate(parsed, { abortEarly: false });
  if (error) throw new SeedListError(`${file}: ${error.message}`, { cause: error });
  return (value as { list: SeedPeer[] }).list;
}
