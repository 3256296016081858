import { allApplied } from '../errors/command-errors';
import type { RedisCommands } from './redis-commands';
import type { Argument } from './transport';
import { demotedError } from './writable-master';

/**
 * A MULTI/EXEC of commands given as argument lists, for writes of many commands. Every key of one transaction
 * must share a hash tag: on a cluster it goes to the node of `routingKey`, and Redis refuses keys of another slot.
 */
export interface RawTransaction {
  add(args: readonly Argument[]): void;
  /**
   * Sends MULTI, the commands and EXEC in one write. Rejects with a TransactionError when Redis refused a command
   * (EXEC ran the others), with a ConnectionError when the server refused writes as a replica (writable-master.ts).
   */
  exec(): Promise<unknown[]>;
}

export function rawTransaction(client: RedisCommands, routingKey: string): RawTransaction {
  const commands: Array<readonly Argument[]> = [];
  return {
    add: (args) => void commands.push(args),
    exec: () =>
      client.transport.transaction(commands, routingKey).then(
        (replies) => {
          try {
            return allApplied(replies);
          } catch (error) {
            throw demotedError(error);
          }
        },
        (error: unknown) => Promise.reject(demotedError(error)),
      ),
  };
}
