import type { ModelScope } from '../../admin';
import { CliContext, liveCount } from '../context';
import { UsageError } from '../errors';
import { Progress } from '../output/progress';

/** --batch-size: objects read per round trip (the integrity tools' batchSize). */
export function batchSizeOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const size = Number(value);
  if (!Number.isSafeInteger(size) || size < 1)
    throw new UsageError(`--batch-size must be a positive integer, got ${JSON.stringify(value)}`);
  return size;
}

/**
 * Runs `work` on every scope of the named model (or of every model): the progress total is the live objects
 * of all of them, and each scope advances it by its objects once done (the integrity functions report no
 * progress of their own, so a scope is one step).
 */
export async function forEachScope(
  context: CliContext,
  name: string | undefined,
  progress: Progress,
  work: (scope: ModelScope) => Promise<void>,
): Promise<void> {
  const scopes: ModelScope[] = [];
  for (const definition of context.modelsOrAll(name)) scopes.push(...(await context.scopes(definition)));
  const sizes = await Promise.all(scopes.map((scope) => liveCount(scope)));
  progress.grow(sizes.reduce((sum, n) => sum + Math.max(n, 0), 0));
  for (const [i, scope] of scopes.entries()) {
    await work(scope);
    progress.advance(Math.max(sizes[i], 0));
  }
}
