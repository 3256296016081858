import { createHash } from 'crypto';
import { luaFiles, luaSource } from './lua-source';

/**
 * The Lua of redis-record as ONE Redis Functions library, loaded with FUNCTION LOAD and called with FCALL.
 *
 * The shared libraries (lua/lib/, in LIBRARY_ORDER: a library may use the ones before it) are defined once at the
 * library's top, as are the per-call `KEYS`, `ARGV` and `SPEC` every function reads; each entry script (every other
 * .lua file under src/store) becomes one registered function whose callback sets them and runs the script's body.
 * So the shared functions are built once per load, not on every call as with EVALSHA.
 *
 * The library's name and every function's name carry its version, the first 8 hex digits of the SHA-1 of its text:
 * `redisrecord_<v>` and `rr_<v>_<script>`. Function names are global on a server, so two deployments of different
 * versions sharing a server each find their own.
 */

/** The shared libraries, in the order they are defined (each may use those before it). */
export const LIBRARY_ORDER = [
  'key-types',
  'composed-entries',
  'spec-lists',
  'indexes',
  'objects',
  'pages',
  'compound-pages',
  'query-program',
  'caps',
  'numbers',
  'ids',
  'sequence-ids',
  'save-context',
  'save-object',
  'json-arrays',
  'update-indexed',
  'lists',
  'relations',
  'transaction-checks',
  'indexed-removal',
  'batches',
  'gathered-removal',
] as const;

const LIB_DIR = 'lua/lib/';

/** An entry script's header line saying it only reads: registered with `no-writes`, called with FCALL_RO. */
const READ_ONLY = /^-- Flags: no-writes\b/m;

/** An entry script reading `SPEC`, the model's part sent as the call's last argument (store/bound-script.ts). */
const USES_SPEC = /^-- SPEC\b/m;

/** One function of the library. */
export interface LibraryFunction {
  /** The script's name: its file name without `.lua`. */
  readonly script: string;
  /** The function's name on the server: `rr_<version>_<script>` (dashes as underscores). */
  readonly name: string;
  /** Registered with `no-writes`: called with FCALL_RO. */
  readonly readOnly: boolean;
  /** Its last argument is the model's SPEC (a string of fields joined by SPEC_SEPARATOR), not an ARGV entry. */
  readonly takesSpec: boolean;
}

/** What joins the values of a SPEC argument: the ASCII unit separator, which no field, stem or kind holds. */
export const SPEC_SEPARATOR = '\x1f';

export interface FunctionLibrary {
  readonly name: string;
  readonly version: string;
  /** The FUNCTION LOAD payload. */
  readonly source: string;
  readonly functions: ReadonlyMap<string, LibraryFunction>;
}

let built: FunctionLibrary | undefined;

/** The library, assembled once per process. */
export function functionLibrary(): FunctionLibrary {
  return (built ??= assemble());
}

const INCLUDE = /^--!include [\w-]+\.lua\s*$/gm;

function assemble(): FunctionLibrary {
  const entries = luaFiles().filter((path) => !path.startsWith(LIB_DIR));
  const parts: string[] = [
    '-- The per-call state every function sets first: its keys, its arguments and, for some, its model SPEC.',
    'local KEYS, ARGV, SPEC = {}, {}, {}',
    '',
    "-- SPEC strings seen, parsed once per server (a library's top-level locals live from one call to the next).",
    'local specs, specCount = {}, 0',
    'local function specOf(text)',
    '  local spec = specs[text]',
    '  if spec then',
    '    return spec',
    '  end',
    '  if specCount >= 1000 then',
    '    specs, specCount = {}, 0',
    '  end',
    '  spec = {}',
    "  for value in string.gmatch(text .. '\\31', '([^\\31]*)\\31') do",
    '    spec[#spec + 1] = value',
    '  end',
    '  specs[text], specCount = spec, specCount + 1',
    '  return spec',
    'end',
    '',
  ];
  for (const library of LIBRARY_ORDER) parts.push(luaSource(`${LIB_DIR}${library}.lua`).replace(INCLUDE, ''));
  const functions = new Map<string, Omit<LibraryFunction, 'name'>>();
  for (const path of entries) {
    const script = path.slice(path.lastIndexOf('/') + 1, -'.lua'.length);
    const body = luaSource(path).replace(INCLUDE, '');
    const readOnly = READ_ONLY.test(body);
    const takesSpec = USES_SPEC.test(body);
    functions.set(script, { script, readOnly, takesSpec });
    const set = takesSpec ? 'SPEC = specOf(args[#args])\n    args[#args] = nil\n    ' : '';
    parts.push(
      `redis.register_function({\n  function_name = 'rr_{version}_${script.replace(/-/g, '_')}',${readOnly ? "\n  flags = { 'no-writes' }," : ''}\n  callback = function(keys, args)\n    ${set}KEYS, ARGV = keys, args\n${body}\n  end,\n})`,
    );
  }
  const text = parts.join('\n');
  const version = createHash('sha1').update(text).digest('hex').slice(0, 8);
  const name = `redisrecord_${version}`;
  return {
    name,
    version,
    source: `#!lua name=${name}\n${text.replace(/\{version\}/g, version)}`,
    functions: new Map([...functions].map(([script, entry]) => [script, { ...entry, name: `rr_${version}_${script.replace(/-/g, '_')}` }])),
  };
}
