import { SingleBar } from 'cli-progress';

/** Progress of long work; a no-op unless stderr is a terminal and the output is not JSON. */
export interface Progress {
  /** Adds `count` to the total of units to do. */
  grow(count: number): void;
  advance(count?: number): void;
  stop(): void;
}

const silent: Progress = { grow: () => undefined, advance: () => undefined, stop: () => undefined };

export function startProgress(label: string, json: boolean): Progress {
  if (json || !process.stderr.isTTY) return silent;
  const bar = new SingleBar({
    format: `${label} [{bar}] {percentage}% | {value}/{total}`,
    stream: process.stderr,
    hideCursor: true,
    clearOnComplete: true,
  });
  let total = 0;
  let started = false;
  return {
    grow(count) {
      total += count;
      if (!started) {
        bar.start(total, 0);
        started = true;
      } else bar.setTotal(total);
    },
    advance(count = 1) {
      if (started) bar.increment(count);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
