import { Findings, Fix } from './findings';
import { ModelScope } from './model-scope';
import { raw } from './raw-commands';

/**
 * The keys of a model scope beside its objects: `all` and `exp` (sorted sets) and the sequence (a string). One
 * holding another type (written by hand) is named (`wrongType`), and every operation refuses it with a
 * WrongTypeError. repair() deletes it and rebuilds what it held: `exp` from the objects' own TTLs (an
 * `expiring` fix), `all` and the sequence on a second pass from the hashes (orphanHash, sequenceBehind). Resolves
 * to whether all three are of their types: the rest of the check reads them, and is left for after the repair.
 */
export async function checkModelKeys(scope: ModelScope, findings: Findings): Promise<boolean> {
  const client = raw(scope.client);
  const { all, expiring, sequence } = scope.keys;
  const wanted: ReadonlyArray<readonly [key: string, type: string, role: string, fix: Fix]> = [
    [all, 'zset', 'list of every id (all)', { type: 'unlink', key: all }],
    [expiring, 'zset', 'expiry times (exp)', { type: 'expiring' }],
    [sequence, 'string', 'id sequence', { type: 'unlink', key: sequence }],
  ];
  const types = await Promise.all(wanted.map(([key]) => client.type(key)));
  let ok = true;
  wanted.forEach(([key, type, role, fix], i) => {
    if (types[i] === 'none' || types[i] === type) return;
    ok = false;
    findings.add('wrongType', { key }, `${key} holds a ${types[i]}, not the ${type} of the model's ${role}`, fix);
  });
  return ok;
}
