import { Script } from './script';

/**
 * Each function of the library (function-library.ts), by the script it is made from; made once, when first used.
 * Run them through their modules (lua/<script>.ts, with callScript), which build their arguments and read their
 * replies.
 */
function script(file: string): () => Script {
  let made: Script | undefined;
  return () => (made ??= new Script(file.replace(/\.lua$/, '')));
}

export const scripts = {
  save: script('save.lua'),
  upsert: script('upsert.lua'),
  createPlain: script('create-plain.lua'),
  updateFields: script('update-fields.lua'),
  saveMany: script('save-many.lua'),
  updateMany: script('update-many.lua'),
  remove: script('remove.lua'),
  removeMany: script('remove-many.lua'),
  query: script('query.lua'),
  window: script('window.lua'),
  rank: script('rank.lua'),
  count: script('count.lua'),
  countBy: script('count-by.lua'),
  expire: script('expire.lua'),
  persist: script('persist.lua'),
  sweep: script('sweep.lua'),
  increment: script('increment.lua'),
  lock: script('lock.lua'),
  unlock: script('unlock.lua'),
  membership: script('membership.lua'),
  placeMembers: script('place-members.lua'),
  replaceMembers: script('replace-members.lua'),
  replaceChildren: script('replace-children.lua'),
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
  trimCap: script('trim-cap.lua'),
  transaction: script('transaction.lua'),
};

/** Functions that take a model's SPEC as their last argument (bound-script.ts). */
export const templates = {
  removeIndexed: script('remove-indexed.lua'),
  removeIndexedMany: script('remove-indexed-many.lua'),
  removeMemo: script('remove-memo.lua'),
};
