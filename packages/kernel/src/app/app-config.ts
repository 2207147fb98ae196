import Joi from 'joi';
import { parse, printParseErrorCode, type ParseError, type ParseErrorCode } from 'jsonc-parser';
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors.js';
import { RUN_MODES, type RunMode } from '../plugin.js';

/** One line of a mode's plugin list: a package name or a path relative to app.json. */
export interface PluginEntry {
  readonly package: string;
  readonly options: Readonly<Record<string, unknown>>;
}

export interface ModeConfig {
  readonly plugins: readonly PluginEntry[];
}

/** The content of app.json: which plugins each run mode enables, with their options. */
export type AppConfig = Readonly<Partial<Record<RunMode, ModeConfig>>>;

const entrySchema = Joi.object({
  package: Joi.string().trim().min(1).required(),
  options: Joi.object().unknown(true).default({}),
});

const modeSchema = Joi.object({
  plugins: Joi.array().items(entrySchema).required(),
});

const appConfigSchema = Joi.object(
  Object.fromEntries(RUN_MODES.map((mode) => [mode, modeSchema])),
).prefs({ abortEarly: false });

export async function readAppConfig(file: string): Promise<AppConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code}`, {
      cause: error,
    });
  }
  return parseAppConfig(text, file);
}

export function parseAppConfig(text: string, file: string): AppConfig {
  const raw = parseJson(text, file);
  const { error, value } = appConfigSchema.validate(raw);
  if (error) {
    const problems = error.details.map((detail) => `${detail.path.join('.')}: ${detail.message}`);
    throw new ConfigError(`${file}: ${problems.join('; ')}`, { cause: error });
  }
  return value as AppConfig;
}

/** Strict JSON, with the line and column of the first mistake (V8's messages often lack them). */
export function parseJson(text: string, file: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0];
  if (first) {
    const before = text.slice(0, first.offset).split('\n');
    const line = before.length;
    const column = (before.at(-1)?.length ?? 0) + 1;
    throw new ConfigError(`${file}:${line}:${column}: ${describeJsonError(first.error)}`);
  }
  return value;
}

function describeJsonError(code: ParseErrorCode): string {
  const name = printParseErrorCode(code);
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
