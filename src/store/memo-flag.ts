import { ModelDescriptor } from '../model/model-descriptor';

/**
 * save.lua's and save-many.lua's memo argument: whether a new object keeps a memo of its entries (a ttl, a cap)
 * and whether its model's objects can expire, so that a create sweeps up to 10 whose time has come:
 * '0' neither, '1' memo, 'e' expirable, 'E' both.
 */
export function memoFlag(model: ModelDescriptor): '0' | '1' | 'e' | 'E' {
  if (model.expirable) return model.keepsMemo ? 'E' : 'e';
  return model.keepsMemo ? '1' : '0';
}
