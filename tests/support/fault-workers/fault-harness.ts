import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createClient } from 'redis';
import { connect, disconnect } from '../../../src';
import { killAndRestart, PrivateRedis, startPrivateRedis } from '../../../tools/private-redis';
import { checkIndexConsistency } from '../index-consistency';
import { AofTarget, aofStepsNaming, describeStep } from './aof-history';
import { fixAofTail } from './fix-aof-tail';
import { checkRelations } from '../relation-consistency';
import { ApplicationClient, applicationRedis, closeApplicationClient } from '../clients/test-client';
import { RawClient, uniquePrefix } from '../test-redis';
import { startWorkerProcess, WorkerProcess } from '../worker-processes/spawn-worker';
import { transpileWorkers, TranspiledWorkers } from '../worker-processes/transpile';
import { FAULT_MODELS, FzBoard } from './fault-models';
import { canonical, differences, readUniverse, State, Universe, universeFromJson } from './universe';

/**
 * The fault suite's side of tests/support/fault-workers/fault-worker.ts: a private Redis of its own (it is
 * killed and cut), worker processes, the replay of their reports into what must be stored, and the checks
 * after each round: the index, unique and relation checkers (and `Model.check()` where the library has it),
 * every worker's objects compared with its acknowledged writes, the shared counter with its increments.
 */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

interface AnnouncedOp {
  op: string;
  fx: Record<string, State | null>;
  unique?: boolean;
  refused?: boolean;
  hit?: boolean;
}

export interface Counts {
  acknowledged: number;
  refused: number;
  failed: number;
  uncertainAtKill: number;
  hits: number;
  [key: string]: number;
}

const universesEqual = (a: Universe, b: Universe) => differences(a, b).length === 0;

/** `model` with the op applied; for a create, the one object of `found` that `model` lacks takes the new id. */
function applied(model: Universe, op: AnnouncedOp, found: Universe): Universe {
  const after = new Map(model);
  if (op.refused) return after;
  for (const [key, state] of Object.entries(op.fx)) {
    if (key.endsWith(':new')) {
      const extra = [...found.keys()].filter((k) => k.startsWith(key[0] + ':') && !model.has(k));
      if (extra.length === 1) after.set(extra[0], state!);
      else after.set(key, state!); // no match possible: reported as a difference
    } else if (state === null) after.delete(key);
    else after.set(key, state);
  }
  return after;
}

/** What the test knows of one worker's objects, carried from round to round. */
export class Ledger {
  model: Universe = new Map();
  private pending: AnnouncedOp | undefined;
  private uncertain = false;

  constructor(readonly worker: number) {}

  /** Replays one process's reports; returns the op whose outcome it did not learn (sent, or failed and not read back). */
  replay(lines: string[], violations: string[], counts: Counts, hitsUncertain: { n: number }, round: string): AnnouncedOp | undefined {
    this.pending = undefined;
    this.uncertain = false;
    const where = (n: string) => `${round}, worker ${this.worker}, write ${n}`;
    for (const line of lines) {
      const [kind, n] = line.split(' ', 2);
      const rest = line.slice(kind.length + 1 + (n?.length ?? 0) + 1);
      if (kind === 'S') {
        const found = universeFromJson(rest);
        if (n === '0') {
          if (!universesEqual(found, this.model))
            violations.push(`${where(n)}: read at start differs: ${differences(found, this.model).join('; ')}`);
        } else {
          const op = this.pending!;
          const after = applied(this.model, op, found);
          if (!universesEqual(found, this.model) && !universesEqual(found, after)) {
            violations.push(
              `${where(n)}: after the failed ${op.op}, stored is neither before nor after it: ${differences(found, after).slice(0, 5).join('; ')}`,
            );
          }
          this.pending = undefined;
        }
        this.model = found;
        this.uncertain = false;
      } else if (kind === 'o') {
        this.pending = JSON.parse(rest) as AnnouncedOp;
        this.uncertain = true;
        counts[`op:${this.pending.op}`] = (counts[`op:${this.pending.op}`] ?? 0) + 1;
      } else if (kind === 'A') {
        const op = this.pending!;
        if (op.refused) violations.push(`${where(n)}: ${op.op} acknowledged, yet a restricting child exists`);
        if (op.hit) counts.hits++;
        this.model = applied(this.model, op, new Map());
        if (rest) {
          // The create's placeholder takes the acknowledged id.
          for (const key of [...this.model.keys()]) {
            if (key.endsWith(':new')) {
              const state = this.model.get(key)!;
              this.model.delete(key);
              this.model.set(`${key[0]}:${rest}`, state);
            }
          }
        }
        counts.acknowledged++;
        this.pending = undefined;
        this.uncertain = false;
      } else if (kind === 'X') {
        const op = this.pending!;
        const error = rest.split(' ')[0];
        const allowed = (error === 'UniqueConstraintError' && op.unique) || (error === 'RelationError' && op.refused);
        if (!allowed) violations.push(`${where(n)}: ${op.op} refused unexpectedly: ${rest.slice(0, 200)}`);
        counts.refused++;
        this.pending = undefined;
        this.uncertain = false;
      } else if (kind === 'F') {
        counts.failed++;
        if (this.pending?.hit) hitsUncertain.n++;
      } else if (kind === 'E') {
        violations.push(`${round}, worker ${this.worker}: ${line.slice(2, 400)}`);
      } else if (kind !== 'done') {
        violations.push(`${round}, worker ${this.worker}: unreadable line ${line.slice(0, 80)}`);
      }
    }
    if (this.pending?.hit && this.uncertain) hitsUncertain.n++;
    return this.uncertain ? this.pending : undefined;
  }

  /** Compares what is stored with the model (or the model with the uncertain op applied), then takes what is stored. */
  compare(stored: Universe, uncertainOp: AnnouncedOp | undefined, violations: string[], round: string): void {
    const after = uncertainOp ? applied(this.model, uncertainOp, stored) : this.model;
    if (!universesEqual(stored, this.model) && !universesEqual(stored, after)) {
      const lost = differences(stored, after);
      violations.push(
        `${round}, worker ${this.worker}: stored differs from the acknowledged writes${uncertainOp ? ` (uncertain: ${uncertainOp.op})` : ''}: ${lost.slice(0, 5).join('; ')}`,
      );
    }
    this.model = stored;
  }
}

/** One fault scenario's world: a private Redis, a prefix, the compiled worker, the test's own clients. */
export class FaultWorld {
  server!: PrivateRedis;
  raw!: RawClient;
  readonly prefix = uniquePrefix('fz');
  readonly ledgers: Ledger[];
  readonly violations: string[] = [];
  readonly counts: Counts = { acknowledged: 0, refused: 0, failed: 0, uncertainAtKill: 0, hits: 0 };
  private compiled!: TranspiledWorkers;
  private running: WorkerProcess[] = [];
  private dataDir: string | undefined;
  private library: RawClient | undefined;
  private application: ApplicationClient | undefined;
  private boardHits = 0;
  checks = 0;
  usedLibraryCheck = false;
  /** Restarts before which redis-check-aof cut the AOF's tail (a write the kill interrupted). */
  aofTailsCut = 0;
  /** For a round with violations, the AOF's steps that name the objects involved. */
  readonly histories: string[] = [];

  constructor(readonly workerCount: number) {
    this.ledgers = Array.from({ length: workerCount }, (_, i) => new Ledger(i));
  }

  /**
   * Starts Redis (with `serverArgs`; AOF data in a dir that outlives restarts when `persistent`; an AOF, not
   * fsynced, when `serverArgs` sets none), connects, creates the board.
   */
  async start(serverArgs: string[] = [], persistent = false): Promise<void> {
    this.compiled = transpileWorkers(`faults-${this.prefix}`, ['tests/support/fault-workers', 'tests/support/clients']);
    if (persistent) this.dataDir = mkdtempSync(join(tmpdir(), 'redis-record-faults-'));
    // an AOF in every scenario, fsynced or not, for the history of a violation (recordHistory)
    const history = serverArgs.includes('--appendonly') ? [] : ['--appendonly', 'yes', '--appendfsync', 'no'];
    this.serverArgs = [...history, ...serverArgs, ...(this.dataDir ? ['--dir', this.dataDir] : [])];
    this.server = await startPrivateRedis(this.serverArgs);
    const fast = { reconnectStrategy: (retries: number) => Math.min(20 * (retries + 1), 200) };
    this.raw = createClient({ url: this.server.url, name: 'fz-test-raw', socket: fast });
    this.raw.on('error', () => undefined);
    await this.raw.connect();
    // the application's client of REDIS_CLIENT's library (clients/test-client.ts), node-redis by default
    // a test that timed out may have closed the world meanwhile: an ioredis client made now would reconnect forever
    if (this.closed) throw new Error('the fault world was closed while it started');
    this.application = applicationRedis(this.server.url, { name: 'fz-test-library', quickReconnect: true });
    if (this.application) await connect({ client: this.application, prefix: this.prefix });
    else {
      this.library = createClient({ url: this.server.url, name: 'fz-test-library', socket: fast });
      this.library.on('error', () => undefined);
      await this.library.connect();
      await connect({ client: this.library, prefix: this.prefix });
    }
    await FzBoard.create({ hits: 0 });
  }
  private serverArgs: string[] = [];

  /** Kills Redis with SIGKILL and starts it again on the same port and data dir; resolves once it answers. */
  async killAndRestartRedis(): Promise<number> {
    const started = Date.now();
    // as an operator of Redis 7.0 must after a crash (fix-aof-tail.ts says why)
    const dataDir = this.dataDir;
    this.server = await killAndRestart(this.server, this.serverArgs, () => {
      if (dataDir && fixAofTail(dataDir)) this.aofTailsCut++;
    });
    return Date.now() - started;
  }

  /** Worker processes started ahead, connected and waiting (a Node start costs more than a round's checks). */
  private standby: WorkerProcess[] | undefined;
  private generation = 0;
  private runningNames: string[] = [];
  private readonly names = new Map<WorkerProcess, string>();

  private spawnWorkers(): WorkerProcess[] {
    const generation = ++this.generation;
    return this.ledgers.map((ledger) => {
      const name = `fz-worker-${this.prefix}-${generation}-${ledger.worker}`;
      const worker = startWorkerProcess(this.compiled.script('tests/support/fault-workers/fault-worker.ts'), {
        REDIS_URL: this.server.url,
        FZ_PREFIX: this.prefix,
        FZ_WORKER: String(ledger.worker),
        FZ_CLIENT_NAME: name,
      });
      this.names.set(worker, name);
      return worker;
    });
  }

  /** Starts every worker (the standby ones when there are), waits until all are ready, lets them go together, and starts the next standby. */
  async startWorkers(): Promise<void> {
    this.running = this.standby ?? this.spawnWorkers();
    this.runningNames = this.running.map((w) => this.names.get(w)!);
    this.standby = undefined;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), 60_000)));
    const outcome = await Promise.race([Promise.all(this.running.map((w) => w.ready)).then(() => 'ready' as const), timeout]);
    clearTimeout(timer);
    const broken = this.running.find((w) => w.child.exitCode !== null || w.child.signalCode !== null);
    if (outcome !== 'ready' || broken) {
      const detail = (broken ?? this.running[0]).stderr() + (broken ?? this.running[0]).lines.join('\n');
      this.killWorkers();
      throw new Error(`fault workers did not start (${outcome}): ${detail.slice(0, 2000)}`);
    }
    for (const worker of this.running) worker.go();
    if (this.prepareNext) this.standby = this.spawnWorkers();
  }
  /** Whether startWorkers() starts the next round's processes ahead. */
  prepareNext = true;

  /** Kills the workers with SIGKILL, each at its own instant within `spreadMs`, and waits until Redis has dropped them. */
  async killWorkersAtRandom(spreadMs: number): Promise<void> {
    await Promise.all(
      this.running.map(async (worker) => {
        await sleep(between(0, spreadMs));
        worker.child.kill('SIGKILL');
        await worker.finished;
      }),
    );
    await this.waitUntilWorkersGone();
  }

  killWorkers(): void {
    for (const worker of [...this.running, ...(this.standby ?? [])])
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  }

  /** Redis runs everything a killed client had sent before it drops the connection: wait for that. */
  private async waitUntilWorkersGone(): Promise<void> {
    const names = this.runningNames.map((name) => ` name=${name} `);
    for (let i = 0; i < 1000; i++) {
      const list = String(await this.raw.sendCommand(['CLIENT', 'LIST']));
      if (!list.split('\n').some((line) => names.some((name) => line.includes(name)))) return;
      await sleep(10);
    }
    throw new Error('Redis still lists a killed worker');
  }

  /** The ids of the connections of the workers (for CLIENT KILL ID). */
  async workerConnectionIds(): Promise<string[]> {
    const list = String(await this.raw.sendCommand(['CLIENT', 'LIST']));
    return list
      .split('\n')
      .filter((line) => line.includes(' name=fz-worker-'))
      .map((line) => /(?:^|\s)id=(\d+)/.exec(line)?.[1])
      .filter((id): id is string => id !== undefined);
  }

  /** Every check of one round, once no worker runs; returns the number of violations it added. */
  async checkRound(round: string): Promise<number> {
    const before = this.violations.length;
    const hitsUncertain = { n: 0 };
    const hitsBefore = this.counts.hits;
    const uncertain = this.ledgers.map((ledger, i) =>
      ledger.replay(this.running[i]?.lines ?? [], this.violations, this.counts, hitsUncertain, round),
    );
    this.counts.uncertainAtKill += uncertain.filter(Boolean).length;
    this.running = [];

    for (const model of FAULT_MODELS) {
      const report = await checkIndexConsistency(model, this.raw, this.prefix);
      this.violations.push(...report.violations.map((v) => `${round}: ${model.name}: ${v}`));
    }
    const relations = await checkRelations(FAULT_MODELS, this.raw, this.prefix);
    this.violations.push(...relations.violations.map((v) => `${round}: ${v}`));
    for (const model of FAULT_MODELS) {
      const check = (model as unknown as { check?: () => Promise<{ ok: boolean; violations?: unknown[] }> }).check;
      if (typeof check !== 'function') continue;
      this.usedLibraryCheck = true;
      const result = await check.call(model);
      if (!result.ok || (result.violations ?? []).length > 0) {
        this.violations.push(`${round}: ${model.name}.check(): ${JSON.stringify(result).slice(0, 600)}`);
      }
    }

    for (const [i, ledger] of this.ledgers.entries())
      ledger.compare(await readUniverse(String(ledger.worker)), uncertain[i], this.violations, round);

    const board = await FzBoard.findOrFail('1');
    const hits = board.hits ?? 0;
    const acknowledged = this.counts.hits - hitsBefore;
    if (hits < this.boardHits + acknowledged || hits > this.boardHits + acknowledged + hitsUncertain.n) {
      this.violations.push(
        `${round}: board hits ${hits}, expected ${this.boardHits + acknowledged} (+ up to ${hitsUncertain.n} unacknowledged)`,
      );
    }
    this.boardHits = hits;
    this.checks++;
    if (this.violations.length > before) this.recordHistory(round, this.violations.slice(before));
    return this.violations.length - before;
  }

  /**
   * What Redis's append-only file says was written to the objects a round's violations name: every write it
   * acknowledged and will replay, so a failure shows how the objects got there. Every scenario's Redis keeps one
   * (start()).
   */
  private recordHistory(round: string, violations: readonly string[]): void {
    const targets = new Map<string, AofTarget>();
    const add = (model: string, id: string) => targets.set(`${model}:${id}`, { model, id });
    for (const violation of violations) {
      for (const match of violation.matchAll(/"model":"(\w+)","id":"([^"]+)"/g)) add(match[1], match[2]);
      const line = /^[^:]*: (\w+): (.*)$/.exec(violation);
      if (!line) continue;
      for (const pattern of [/unexpected id (\S+)/g, /hash of (\S+)/g, /^(\S+) is in all/g, /memo of (\S+),/g]) {
        for (const match of line[2].matchAll(pattern)) add(line[1], match[1]);
      }
    }
    if (targets.size === 0) return;
    const steps = aofStepsNaming(this.aofDir, [...targets.values()]);
    const named = [...targets.keys()].join(', ');
    this.histories.push(
      `${round}: the AOF's last ${steps.length} steps naming ${named}:`,
      ...steps.map((step) => `  ${describeStep(step)}`),
    );
  }

  /** The directory of Redis's AOF: the data dir that outlives restarts, else the server's own temp dir. */
  get aofDir(): string {
    return this.dataDir ?? this.server.dir;
  }

  /** Objects stored now, over all workers. */
  async objectCount(): Promise<number> {
    let total = 0;
    for (const model of FAULT_MODELS) total += await (model as unknown as typeof FzBoard).count();
    return total;
  }

  summary(name: string, started: number, events: string): string {
    const ops = Object.entries(this.counts)
      .filter(([key]) => key.startsWith('op:'))
      .map(([key, n]) => `${key.slice(3)} ${n}`)
      .join(', ');
    return (
      `${name}: ${this.workerCount} workers, ${events}; ${this.counts.acknowledged} writes acknowledged, ` +
      `${this.counts.refused} refused, ${this.counts.failed} failed (read back), ${this.counts.uncertainAtKill} in flight at a kill; ` +
      `${this.checks} checks${this.usedLibraryCheck ? ' (with Model.check())' : ''}; ${this.violations.length} violations; ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s\n  sent: ${ops}\n` +
      this.histories.map((line) => `${line}\n`).join('')
    );
  }

  /** Kills what still runs, closes the clients, stops Redis, removes its data and the compiled workers: also after a failure. */
  private closed = false;
  async close(): Promise<void> {
    this.closed = true;
    this.killWorkers();
    await Promise.all([...this.running, ...(this.standby ?? [])].map((w) => w.finished));
    await disconnect().catch(() => undefined);
    for (const client of [this.raw, this.library]) {
      if (client?.isOpen) await client.close().catch(() => client.destroy());
    }
    closeApplicationClient(this.application);
    await this.server?.stop();
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
    this.compiled?.remove();
  }
}

export { canonical };
