import type { Command } from './transport';

/**
 * Puts a reply into its RESP2 shape, whatever protocol the client speaks: node-redis 6 and ioredis 6 speak RESP3
 * by default (HELLO 3). Maps become flat [field, value, ...] arrays, sets arrays, booleans 1 / null (Lua's RESP2
 * conversion), big numbers and doubles strings (RESP2 sends doubles as bulk strings), and the score pairs RESP3
 * nests in Z* WITHSCORES replies ([[member, score], ...]) are flattened. Errors inside arrays (EXEC) are kept.
 */
export function toResp2(reply: unknown, command: Command | undefined, buffers: boolean): unknown {
  const shaped = generic(reply, buffers);
  if (command && Array.isArray(shaped) && nestsScorePairs(command)) {
    if (shaped.length > 0 && shaped.every((entry) => Array.isArray(entry) && entry.length === 2)) return shaped.flat();
  }
  return shaped;
}

function text(value: string, buffers: boolean): string | Buffer {
  return buffers ? Buffer.from(value) : value;
}

function generic(reply: unknown, buffers: boolean): unknown {
  if (reply === null || reply === undefined) return null;
  switch (typeof reply) {
    case 'string':
      return text(reply, buffers);
    case 'number':
      return reply;
    case 'boolean':
      return reply ? 1 : null;
    case 'bigint':
      return text(reply.toString(), buffers);
    default:
      break;
  }
  if (Buffer.isBuffer(reply) || reply instanceof Error) return reply;
  if (reply instanceof String) return text(reply.toString(), buffers); // node-redis VerbatimString
  if (Array.isArray(reply)) return reply.map((entry) => generic(entry, buffers));
  if (reply instanceof Set) return [...reply].map((entry) => generic(entry, buffers));
  if (reply instanceof Map) return [...reply].flatMap(([field, value]) => [generic(field, buffers), generic(value, buffers)]);
  if (typeof reply === 'object') {
    return Object.entries(reply as Record<string, unknown>).flatMap(([field, value]) => [text(field, buffers), generic(value, buffers)]);
  }
  return reply;
}

const WITHSCORES_COMMANDS = new Set([
  'ZRANGE',
  'ZREVRANGE',
  'ZRANGEBYSCORE',
  'ZREVRANGEBYSCORE',
  'ZUNION',
  'ZINTER',
  'ZDIFF',
  'ZRANDMEMBER',
]);

/** Whether RESP3 nests this command's reply as [member, score] pairs (RESP2 has them flat). */
function nestsScorePairs(command: Command): boolean {
  const name = String(command[0]).toUpperCase();
  if (name === 'ZPOPMIN' || name === 'ZPOPMAX') return command.length > 2; // with a count
  if (!WITHSCORES_COMMANDS.has(name)) return false;
  return command.some((argument, i) => i > 0 && String(argument).toUpperCase() === 'WITHSCORES');
}
