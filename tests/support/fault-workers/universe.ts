import { BaseEntity } from '../../../src';
import { FzBadge, FzNote, FzPost, FzTag, FzUser } from './fault-models';

/**
 * What one worker owns, as the fault suite compares it: `<kind>:<id>` -> the object's attributes (without the
 * id, keys sorted), users with their tag ids. Kinds: U user, P post, N note, T tag, B badge.
 */
export type State = Record<string, unknown>;
export type Universe = Map<string, State>;

export const KINDS = { U: FzUser, P: FzPost, N: FzNote, T: FzTag, B: FzBadge } as const;
export type Kind = keyof typeof KINDS;

/** Sorted keys, absent values left out: two equal states print the same. */
export function canonical(state: State): string {
  const sorted: State = {};
  for (const key of Object.keys(state).sort()) if (state[key] !== undefined && state[key] !== null) sorted[key] = state[key];
  return JSON.stringify(sorted);
}

export function stateOfEntity(entity: BaseEntity): State {
  const { id: _id, ...attributes } = entity.toJSON();
  return attributes;
}

/** Reads everything worker `w` owns through the library (its `w` index, then each user's tags). */
export async function readUniverse(w: string): Promise<Universe> {
  const universe: Universe = new Map();
  const users: FzUser[] = [];
  for (const [kind, model] of Object.entries(KINDS) as Array<[Kind, typeof FzUser]>) {
    const found: BaseEntity[] = await model.findBy({ w });
    for (const entity of found) {
      universe.set(`${kind}:${entity.id}`, stateOfEntity(entity));
      if (kind === 'U') users.push(entity as unknown as FzUser);
    }
  }
  const tags = await Promise.all(users.map((user) => user.tags.ids()));
  users.forEach((user, i) => (universe.get(`U:${user.id}`)!.tags = [...tags[i]].sort()));
  return universe;
}

export function universeToJson(universe: Universe): string {
  return JSON.stringify([...universe].map(([key, state]) => [key, JSON.parse(canonical(state))]));
}

export function universeFromJson(json: string): Universe {
  return new Map(JSON.parse(json) as Array<[string, State]>);
}

/** Differences between two universes, for messages (empty when equal). */
export function differences(found: Universe, wanted: Universe): string[] {
  const out: string[] = [];
  for (const key of new Set([...found.keys(), ...wanted.keys()])) {
    const a = found.get(key);
    const b = wanted.get(key);
    const sa = a ? canonical(a) : '<absent>';
    const sb = b ? canonical(b) : '<absent>';
    if (sa !== sb) out.push(`${key}: stored ${sa}, expected ${sb}`);
  }
  return out.sort();
}
