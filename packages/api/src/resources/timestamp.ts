/** A time as the 3.0 API writes it: seconds since the network epoch, UNIX seconds, ISO 8601. */
export interface ApiTimestamp {
  readonly epoch: number;
  readonly unix: number;
  readonly human: string;
}

/** Converts epoch seconds of a network whose epoch began at `epochStart` (ISO 8601 or Date). */
export function timestampOf(epochSeconds: number, epochStart: string | Date): ApiTimestamp {
  const startMs = epochMs(epochStart);
  const unixMs = startMs + epochSeconds * 1000;
  return { epoch: epochSeconds, unix: Math.floor(unixMs / 1000), human: humanTime(unixMs) };
}

// The transactions of a block share its time, and a page lists them block by block:
// toISOString was 6 % of a page of 100 transfers.
let lastUnixMs = Number.NaN;
let lastHuman = '';
function humanTime(unixMs: number): string {
  if (unixMs !== lastUnixMs) {
    lastHuman = new Date(unixMs).toISOString();
    lastUnixMs = unixMs;
  }
  return lastHuman;
}

// A page of 100 transactions asks for the same epoch 100 times: parse it once.
let lastEpoch: string | Date | undefined;
let lastEpochMs = 0;
function epochMs(epochStart: string | Date): number {
  if (epochStart !== lastEpoch) {
    lastEpochMs = new Date(epochStart).getTime();
    lastEpoch = epochStart;
  }
  return lastEpochMs;
}
