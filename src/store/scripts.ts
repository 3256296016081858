import { loadScript, Script } from './script';

/** Every script redis-record runs, by name; each is read once, when first used. */
const cache = new Map<string, Script>();

function script(file: string): () => Script {
  return () => {
    let loaded = cache.get(file);
    if (!loaded) {
      loaded = loadScript(file);
      cache.set(file, loaded);
    }
    return loaded;
  };
}

/** Every script that runs as it is (what connect() loads), loaded (and cached in this process). */
export function allScripts(): Script[] {
  return Object.values(scripts).map((get) => get());
}

export const scripts = {
  save: script('save.lua'),
  createPlain: script('create-plain.lua'),
  updateFields: script('update-fields.lua'),
  saveMany: script('save-many.lua'),
  updateMany: script('update-many.lua'),
  remove: script('remove.lua'),
  removeMany: script('remove-many.lua'),
  query: script('query.lua'),
  window: script('window.lua'),
  count: script('count.lua'),
  expire: script('expire.lua'),
  persist: script('persist.lua'),
  sweep: script('sweep.lua'),
  increment: script('increment.lua'),
  lock: script('lock.lua'),
  unlock: script('unlock.lua'),
  membership: script('membership.lua'),
  registerSchema: script('register-schema.lua'),
  replaceDefinition: script('replace-definition.lua'),
  repairObject: script('repair-object.lua'),
  repairEntries: script('repair-entries.lua'),
  nullifyForeignKey: script('nullify-foreign-key.lua'),
  repairMembership: script('repair-membership.lua'),
  raiseSequence: script('raise-sequence.lua'),
  claimUnique: script('claim-unique.lua'),
  releaseUnique: script('release-unique.lua'),
  expectTypes: script('expect-types.lua'),
  removePlain: script('remove-plain.lua'),
  drawIds: script('draw-ids.lua'),
  repairExpiry: script('repair-expiry.lua'),
};

/**
 * Scripts that never run as they are: each runs as copies with a model's data bound into the source
 * (src/store/bound-script.ts), loaded with the model's registration. connect() does not load these.
 */
export const templates = {
  removeIndexed: script('remove-indexed.lua'),
  removeIndexedMany: script('remove-indexed-many.lua'),
  removeMemo: script('remove-memo.lua'),
};
