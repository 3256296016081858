import { RedisCommands } from './redis-commands';
import { isCluster } from './topology';
import { demotedError } from './writable-master';

type Args = Array<string | Buffer>;

/**
 * A MULTI/EXEC of commands given as argument lists, for bulk writes of many commands: node-redis's typed
 * builders parse every command's arguments again (several microseconds per command), addCommand takes them as
 * they are. Every key of one transaction must share a hash tag: on a cluster it goes to the node of
 * `routingKey`, and Redis refuses keys of another slot.
 */
export interface RawTransaction {
  add(args: Args): void;
  /**
   * Sends MULTI, the commands and EXEC in one write; rejects (MultiErrorReply) when a command failed, with a
   * ConnectionError when the server refused writes as a replica (writable-master.ts).
   */
  exec(): Promise<unknown[]>;
}

interface ClientMulti {
  addCommand(args: Args): unknown;
  exec(): Promise<unknown[]>;
}

interface ClusterMulti {
  addCommand(firstKey: string, isReadonly: boolean, args: Args): unknown;
  exec(): Promise<unknown[]>;
}

export function rawTransaction(client: RedisCommands, routingKey: string): RawTransaction {
  if (isCluster(client)) {
    const multi = (client as unknown as { multi(routing: string): ClusterMulti }).multi(routingKey);
    return {
      add: (args) => void multi.addCommand(routingKey, false, args),
      exec: () => multi.exec().catch(rejectTyped),
    };
  }
  const multi = client.multi() as unknown as ClientMulti;
  return {
    add: (args) => void multi.addCommand(args),
    exec: () => multi.exec().catch(rejectTyped),
  };
}

const rejectTyped = (error: unknown): Promise<never> => Promise.reject(demotedError(error));
