#!/usr/bin/env node
import { Command, CommanderError, Option } from 'commander';
import { checkCommand } from './commands/check';
import { modelsCommand } from './commands/models';
import { reindexCommand } from './commands/reindex';
import { repairCommand } from './commands/repair';
import { showCommand } from './commands/show';
import { statsCommand } from './commands/stats';
import { sweepCommand } from './commands/sweep';
import { CliContext, DEFAULT_PREFIX, DEFAULT_URL, GlobalOptions } from './context';
import { EXIT_FAILURE, UsageError } from './errors';
import { packageVersion } from './version';
import { redactSecrets } from '../admin';

/**
 * `redis-record <command>`: inspects and maintains the data of redis-record models from the definitions stored
 * in Redis, without the application's code (docs/cli.md). Exit codes: 0 ok, 1 violations, 2 usage or failure.
 */

/** The URL the command was given (for redaction), found before commander has parsed anything. */
function urlOf(argv: readonly string[]): string {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--url' && i + 1 < argv.length) return argv[i + 1];
    if (argv[i].startsWith('--url=')) return argv[i].slice('--url='.length);
  }
  return process.env.REDIS_RECORD_URL ?? DEFAULT_URL;
}

/** The cluster nodes the command was given (`--cluster` or REDIS_RECORD_CLUSTER), for redaction. */
function clusterOf(argv: readonly string[]): string {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cluster' && i + 1 < argv.length) return argv[i + 1];
    if (argv[i].startsWith('--cluster=')) return argv[i].slice('--cluster='.length);
  }
  return process.env.REDIS_RECORD_CLUSTER ?? '';
}

/** `text` with the password of the URL and of every cluster node URL masked. */
function redactAll(text: string, argv: readonly string[]): string {
  let out = redactSecrets(text, urlOf(argv));
  for (const node of clusterOf(argv).split(',')) {
    const entry = node.trim();
    if (/^rediss?:\/\//i.test(entry)) out = redactSecrets(out, entry);
  }
  return out;
}

/** A command: its positional arguments (undefined when an optional one is left out) and its own options. */
type Run = (context: CliContext, args: Array<string | undefined>, local: { batchSize?: string }) => Promise<number>;

export function buildProgram(setExit: (code: number) => void, warn: (line: string) => void = () => undefined): Command {
  const program = new Command('redis-record')
    // an argument too many is a usage error (exit 2), not silently dropped; the commands inherit this
    .allowExcessArguments(false)
    .description('Inspect, check and repair redis-record data from the model definitions stored in Redis.')
    .addOption(
      new Option('--url <url>', 'Redis URL: redis[s]://[[user]:password@]host:port[/db]').default(DEFAULT_URL).env('REDIS_RECORD_URL'),
    )
    .addOption(
      new Option('--cluster <nodes>', 'a Redis Cluster instead of --url: host:port[,host:port...] (or redis:// URLs)').env(
        'REDIS_RECORD_CLUSTER',
      ),
    )
    .option('--prefix <prefix>', 'the prefix given to connect()', DEFAULT_PREFIX)
    .option('--json', 'machine-readable output (one JSON document on stdout)', false)
    .option('--tenant <tenant>', 'work on one tenant only (default: outside tenants and every tenant found)')
    .version(packageVersion(), '-V, --version', 'print the version of redis-record')
    // each command's --help lists these options too (set before the commands are made: they inherit it)
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(run redis-record --help for usage)')
    .exitOverride();

  const action =
    (run: Run) =>
    async (...args: unknown[]): Promise<void> => {
      // commander calls an action with the positional arguments, the command's options, then the command.
      const command = args[args.length - 1] as Command;
      const positional = args.slice(0, -2) as Array<string | undefined>;
      const local = args[args.length - 2] as { batchSize?: string };
      const options = command.optsWithGlobals() as GlobalOptions;
      if (options.cluster !== undefined && program.getOptionValueSource('url') === 'cli')
        throw new UsageError('pass either --url or --cluster, not both');
      const global = {
        url: options.url,
        cluster: options.cluster,
        prefix: options.prefix,
        json: Boolean(options.json),
        tenant: options.tenant,
      };
      const context = await CliContext.open(global, warn);
      try {
        setExit(await run(context, positional, local));
      } finally {
        await context.close();
      }
    };

  program
    .command('models')
    .description('every model stored under the prefix: tenants and live objects')
    .action(action((c) => modelsCommand(c)));
  program
    .command('stats')
    .argument('<Model>')
    .description('objects, memory (objects sampled, index keys summed) and the size of each index')
    .action(action((c, [name]) => statsCommand(c, name!)));
  program
    .command('show')
    .argument('<Model>')
    .argument('<id>')
    .description('one stored object: attributes decoded by their stored types, and its index entries')
    .action(action((c, [name, id]) => showCommand(c, name!, id!)));
  program
    .command('check')
    .argument('[Model]', 'one model (default: every model)')
    .option('--batch-size <n>', 'objects read per round trip (default 500)')
    .description('report every violation of the invariants (exit code 1 when there is one)')
    .action(action((c, [name], local) => checkCommand(c, name, local)));
  program
    .command('repair')
    .argument('[Model]', 'one model (default: every model)')
    .option('--batch-size <n>', 'objects read per round trip (default 500)')
    .description('fix every violation that has a safe fix (exit code 1 when some are left)')
    .action(action((c, [name], local) => repairCommand(c, name, local)));
  program
    .command('reindex')
    .argument('<Model>')
    .option('--batch-size <n>', 'objects read per round trip (default 500)')
    .description("rebuild the model's index entries from its stored objects")
    .action(action((c, [name], local) => reindexCommand(c, name!, local)));
  program
    .command('sweep')
    .argument('[Model]', 'one model (default: every model)')
    .description('delete expired objects with all their index entries')
    .action(action((c, [name]) => sweepCommand(c, name)));
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = argv.slice(2);
  const redact = (text: string) => redactAll(text, args);
  const say = (text: string) => process.stderr.write(`${redact(text)}\n`);
  let code = 0;
  const program = buildProgram(
    (c) => (code = c),
    (line) => say(`redis-record: ${line}`),
  );
  program.configureOutput({
    writeOut: (text) => process.stdout.write(redact(text)),
    writeErr: (text) => process.stderr.write(redact(text)),
  });
  try {
    await program.parseAsync(argv as string[]);
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exit code 0; every other parse error is a usage error.
      return error.exitCode === 0 ? 0 : EXIT_FAILURE;
    }
    if (error instanceof UsageError) say(`redis-record: ${error.message}`);
    else say(`redis-record: failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILURE;
  }
}

if (require.main === module) {
  main(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`redis-record: failed: ${redactAll(String(error), process.argv)}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  );
}
