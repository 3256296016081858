import { readFileSync } from 'fs';
import * as os from 'os';
import { freshPageMicros } from '../support/fresh-page-cost';

/** The machine and software a run measured on, recorded with its figures. */
export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  os: string;
  node: string;
  /** The suite's private server and its version: `Redis 7.0.15`, `Valkey 8.0.1`. */
  server: string;
  /** os.loadavg() when the run started, and when it ended: how busy the machine was besides the suite. */
  loadAverage: { start: number[]; end: number[] };
  /**
   * Microseconds per 4 KiB page a process touches for the first time, when the run started and when it ended
   * (fresh-page-cost.ts; null where it could not be told). Absent from runs recorded before it was measured.
   */
  freshPage?: { start: number | null; end: number | null };
}

function distribution(): string | undefined {
  try {
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

const round = (value: number) => Math.round(value * 100) / 100;

/** The machine at the end of a run; `loadAtStart` and `pageAtStart` were read when it started. */
export function describeMachine(server: string, loadAtStart: number[], pageAtStart: number | null): Machine {
  const cpus = os.cpus();
  const kernel = `${os.type()} ${os.release()} ${os.arch()}`;
  const name = distribution();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    ramGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: name ? `${name} (${kernel})` : kernel,
    node: process.version,
    server,
    loadAverage: { start: loadAtStart.map(round), end: os.loadavg().map(round) },
    freshPage: { start: pageAtStart, end: freshPageMicros() },
  };
}
