// `npm run test:consumers`: packs redis-record (prepack builds it), installs the tarball into fresh temporary
// projects (tools/consumers/projects.ts), builds each with its tool and runs the README example and the checks of
// fixtures/ in it, each project against a private redis-server of its own on a free port.
//
//   npm run test:consumers                       # every project
//   npm run test:consumers -- --only esbuild,tsx # some
//   npm run test:consumers -- --keep             # keep the temporary folder, to look at a failure
//   REDIS_RECORD_TARBALL=/path/redis-record-0.1.0.tgz npm run test:consumers   # a tarball already packed
import { spawnSync } from 'child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { delimiter, join } from 'path';
import { packTarball } from '../pack-tarball';
import { startPrivateRedis } from '../private-redis';
import { Consumer, consumers } from './projects';

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(__dirname, 'fixtures');
const COMMAND_LIMIT_MS = 5 * 60_000;

/** The first ```ts block under the README's "## Example", connecting to the private server instead of 6379. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /^## Example\n[\s\S]*?^```ts\n([\s\S]*?)^```/m.exec(readme);
  if (!block) throw new Error('README.md: no ```ts block under "## Example"');
  const url = "'redis://localhost:6379'";
  if (!block[1].includes(url)) throw new Error(`README.md: the example no longer connects to ${url}: update tools/consumers/run.ts`);
  return block[1].replace(url, 'process.env.REDIS_URL');
}

/** What a finished README example prints (its console.log lines). */
const README_OUTPUT = [/Post \(persisted\) \{/, /^\s*null\s*$/m, /\[ 'Indexes', 'Hello' \]/, /slug: 'hello'/, /^1$/m];

/** Runs `command` in `cwd`, the project's node_modules/.bin first on PATH; throws with its output on failure. */
function run(command: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const bin = join(cwd, 'node_modules', '.bin');
  const result = spawnSync(command[0], command.slice(1), {
    cwd,
    env: { ...process.env, ...env, PATH: `${bin}${delimiter}${process.env.PATH}` },
    encoding: 'utf8',
    timeout: COMMAND_LIMIT_MS,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) {
    const why = result.error ? result.error.message : `exit ${result.status ?? result.signal}`;
    throw new Error(`${command.join(' ')} (in ${cwd}): ${why}\n${output.trim()}`);
  }
  return output;
}

function writeProject(consumer: Consumer, dir: string, packed: string, example: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  const dependencies = { 'redis-record': `file:${packed}`, ...consumer.dependencies };
  const manifest = {
    name: `consumer-${consumer.name.replace(/\W/g, '-')}`,
    private: true,
    ...(consumer.esm ? { type: 'module' } : {}),
    dependencies,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [file, content] of Object.entries(consumer.files)) writeFileSync(join(dir, file), `${JSON.stringify(content, null, 2)}\n`);
  for (const app of consumer.apps) {
    writeFileSync(join(dir, 'src', `${app}.ts`), app === 'readme' ? example : readFileSync(join(FIXTURES, `${app}.ts`), 'utf8'));
  }
}

interface Outcome {
  readonly name: string;
  readonly passed: boolean;
  readonly detail: string;
}

async function runConsumer(consumer: Consumer, root: string, packed: string, example: string): Promise<Outcome> {
  const dir = join(root, consumer.name);
  const started = Date.now();
  const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
  const steps: string[] = [];
  try {
    writeProject(consumer, dir, packed, example);
    run(['npm', 'install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...(consumer.install ?? [])], dir);
    steps.push(`install ${seconds(started)}`);
    const built = Date.now();
    for (const command of consumer.build) run(command, dir);
    if (consumer.build.length > 0) steps.push(`build ${seconds(built)}`);
    const redis = await startPrivateRedis();
    try {
      for (const app of consumer.apps) {
        const ran = Date.now();
        const { command, cwd } = consumer.run(app);
        const output = run(command, join(dir, cwd ?? '.'), { REDIS_URL: redis.url });
        const missing = app === 'readme' ? README_OUTPUT.filter((line) => !line.test(output)) : [];
        if (missing.length > 0) throw new Error(`${app}: the output lacks ${missing.join(', ')}:\n${output.trim()}`);
        steps.push(`${app} ${seconds(ran)}`);
        if (app !== 'readme') console.log(`  ${output.trim().split('\n').pop()}`);
      }
    } finally {
      await redis.stop();
    }
    return { name: consumer.name, passed: true, detail: steps.join(', ') };
  } catch (error) {
    return { name: consumer.name, passed: false, detail: `${steps.join(', ')}${steps.length ? '; ' : ''}${(error as Error).message}` };
  }
}

async function main(): Promise<void> {
  const only = process.argv.find((arg, i) => process.argv[i - 1] === '--only' || arg.startsWith('--only='));
  const wanted = only?.replace(/^--only=/, '').split(',');
  const chosen = wanted ? consumers.filter((consumer) => wanted.includes(consumer.name)) : consumers;
  if (wanted && chosen.length !== wanted.length) {
    throw new Error(`--only takes names among ${consumers.map((consumer) => consumer.name).join(', ')}`);
  }
  const root = mkdtempSync(join(tmpdir(), 'redis-record-consumers-'));
  const started = Date.now();
  const outcomes: Outcome[] = [];
  try {
    const packed = packTarball(root);
    console.log(`consumers: ${packed}, into ${chosen.length} projects under ${root}`);
    const example = readmeExample();
    for (const consumer of chosen) {
      console.log(`${consumer.name}: ${consumer.title}`);
      const outcome = await runConsumer(consumer, root, packed, example);
      outcomes.push(outcome);
      console.log(`${outcome.passed ? 'PASS' : 'FAIL'} ${consumer.name}: ${outcome.detail}`);
    }
  } finally {
    if (process.argv.includes('--keep')) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  const failed = outcomes.filter((outcome) => !outcome.passed);
  console.log(`consumer projects in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`consumers: ${outcomes.length - failed.length} passed, ${failed.length} failed`);
  if (failed.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
