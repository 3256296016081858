import { readDefinitions, unreadableDefinition } from '../schema/schema-registry';
import type { StoredDefinition } from '../schema/stored-definition';

/** What readStoredDefinitions finds under a prefix: the definitions it could read, and those it could not. */
export interface StoredDefinitions {
  /** Each readable definition, by model name. */
  readonly definitions: Map<string, StoredDefinition>;
  /**
   * The models whose stored definition cannot be read (not JSON, or not a valid definition stored under its
   * own name), each with a sentence saying which and why. Such a definition is never used to name keys.
   */
  readonly unreadable: Map<string, string>;
}

/**
 * Every definition stored under the prefix (`<prefix>#models`), as storedDefinitions reads them, except that one
 * that cannot be read is reported in `unreadable` instead of failing the whole read: a tool can go on with the
 * other models.
 */
export async function readStoredDefinitions(client: unknown, prefix: string): Promise<StoredDefinitions> {
  const { definitions, unreadable } = await readDefinitions(client, prefix);
  const messages = new Map([...unreadable].map(([name, why]) => [name, unreadableDefinition(name, why)]));
  return { definitions, unreadable: messages };
}
