/**
 * The bulk crash test's worker: saveMany calls of BULK_CRASH_BATCH new BulkCrashItems, one after another, as
 * fast as it can, until it is killed. Run with REDIS_URL, WORKER_PREFIX, WORKER_CLIENT_NAME and
 * WORKER_FIRST_CALL (the number of its first call) set. It starts by itself once connected.
 *
 * Protocol (stdout, one line each, written synchronously before/after the call):
 *   ready                      connected, work starts
 *   s <call>                   saveMany of call <call> is about to be sent
 *   S <call> <first id>        it was acknowledged, every item saved; item p took <first id> + p
 *   E <message>                something went wrong that should not
 */
import { writeSync } from 'fs';
import { connectNamedWorker } from '../worker-processes/connect-named-worker';
import { BULK_CRASH_BATCH, BULK_CRASH_CHUNK, bulkCrashAttributes, BulkCrashItem } from './bulk-crash-item';

function say(line: string): void {
  // Synchronous, so a line written before a call reaches the parent even if the process dies next.
  writeSync(1, line + '\n');
}

async function main(): Promise<void> {
  await connectNamedWorker('bulk-crash-worker');
  say('ready');
  for (let call = Number(process.env.WORKER_FIRST_CALL ?? 0); ; call++) {
    const items = Array.from({ length: BULK_CRASH_BATCH }, (_, pos) => bulkCrashAttributes(call, pos));
    say(`s ${call}`);
    const result = await BulkCrashItem.saveMany(items, { chunkSize: BULK_CRASH_CHUNK });
    if (!result.ok) say(`E call ${call}: ${result.failed.length} items failed, first: ${result.failed[0].error.message}`);
    say(`S ${call} ${result.saved[0]?.id}`);
  }
}

main().catch((error: unknown) => {
  say(`E ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
});
