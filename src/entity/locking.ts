import { randomUUID } from 'crypto';
import { activeConnection } from '../redis/connection';
import { describeValue } from '../util/describe-value';
import { ArgumentError, LockTimeoutError } from '../errors/errors';
import { ModelDescriptor } from '../model/model-descriptor';
import { callScript } from '../store/entry-script';
import { lockScript } from '../store/lua/lock';
import { unlockScript } from '../store/lua/unlock';

/** The options of `Model.withLock(id, work, options)` (docs/concurrency.md#withlock). */
export interface LockOptions {
  /** How long the lock lives if its holder never releases it (a crashed process). Default 5000 ms. */
  ttlMs?: number;
  /** How long to wait for a lock someone else holds before LockTimeoutError. Default 2000 ms. */
  waitMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` while holding the object's lock: a key with a random token (SET NX PX), released by a script
 * only if the token is still ours, expiring by itself if the holder dies. Mutual exclusion holds among
 * callers of withLock, for at most ttlMs: work that runs longer should use a longer ttlMs. The outcome is
 * work's: a release that fails (the connection lost) is ignored, and the lock expires after ttlMs.
 */
export async function withObjectLock<R>(model: ModelDescriptor, id: string, work: () => Promise<R>, options: LockOptions): Promise<R> {
  // only undefined takes the default: null is a mistake like any other value
  const ttlMs = options.ttlMs === undefined ? 5000 : options.ttlMs;
  const waitMs = options.waitMs === undefined ? 2000 : options.waitMs;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1)
    throw new ArgumentError(`${model.name}: ttlMs must be a whole number >= 1, got ${describeValue(ttlMs)}`);
  if (!Number.isSafeInteger(waitMs) || waitMs < 0)
    throw new ArgumentError(`${model.name}: waitMs must be a whole number >= 0, got ${describeValue(waitMs)}`);
  const connection = activeConnection();
  const key = model.keysOf(connection.prefix, id).lock(id);
  const token = randomUUID();
  const deadline = Date.now() + waitMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    if (await callScript(connection.client, lockScript, { key, token, ttlMs })) break;
    if (Date.now() >= deadline) throw new LockTimeoutError(model.name, id, waitMs);
    await sleep(Math.min(pause + Math.random() * pause, Math.max(1, deadline - Date.now())));
  }
  try {
    return await work();
  } finally {
    await callScript(connection.client, unlockScript, { key, token }).catch(() => undefined);
  }
}
