import { readFileSync } from 'fs';
import * as os from 'os';

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
}

function distribution(): string | undefined {
  try {
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

const round = (value: number) => Math.round(value * 100) / 100;

export function describeMachine(server: string, loadAtStart: number[]): Machine {
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
  };
}
