import { readFileSync } from 'node:fs';

/** The version of this LNI distribution (the CLI package's), as snapshots record it. */
export const lniVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
