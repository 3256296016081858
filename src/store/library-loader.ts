import { CommandError } from '../errors/command-errors';
import { everyMaster } from '../redis/topology';
import type { Transport } from '../redis/transport';
import { functionLibrary } from './function-library';

/**
 * Loads the function library on every master (FUNCTION LOAD): at connect(), and again when a server answers that
 * it lacks a function. A master that has it already (another process loaded it) is left as it is. Functions are
 * persisted and replicated by Redis, so a replica promoted by a failover has them.
 */
export async function loadLibrary(transport: Transport): Promise<void> {
  const { source } = functionLibrary();
  await everyMaster(transport, (node) =>
    node.send(['FUNCTION', 'LOAD', source]).catch((error: unknown) => {
      if (error instanceof CommandError && error.message.includes('already exists')) return;
      throw error;
    }),
  );
}

/** The loads under way, per transport: the calls that found the library missing at the same time share one. */
const reloading = new WeakMap<Transport, Promise<void>>();

/** loadLibrary, once for all the calls that need it at the same moment. */
export function loadLibraryAgain(transport: Transport): Promise<void> {
  let load = reloading.get(transport);
  if (!load) {
    load = loadLibrary(transport).finally(() => reloading.delete(transport));
    reloading.set(transport, load);
  }
  return load;
}
