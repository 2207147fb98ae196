import { SingleBar } from 'cli-progress';

/** A progress bar on stderr; silent when stderr is not a terminal (logs and pipes stay clean). */
export interface Progress {
  update(done: number): void;
  stop(): void;
}

export function progressBar(label: string, total: number, unit: string): Progress {
  if (process.stderr.isTTY !== true) return { update() {}, stop() {} };
  const bar = new SingleBar({
    stream: process.stderr,
    format: `${label} |{bar}| {percentage}% | {value}/{total} ${unit} | ETA {eta_formatted}`,
    etaBuffer: 20,
  });
  bar.start(total, 0);
  return {
    update: (done) => bar.update(done),
    stop: () => bar.stop(),
  };
}
