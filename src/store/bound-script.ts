import { Script } from './script';

/**
 * A script with data bound into its source: `local SPEC = { ... }` ahead of the script's own text, so that
 * arguments that depend on the model only are not sent, read into Lua and parsed again with every call (for
 * remove-indexed.lua, 12 arguments of 13, worth about 3 us per remove). Each binding is a script of its own on
 * the server (its own SHA, loaded by the first EVALSHA's NOSCRIPT fallback); make one per model and keep it.
 */
export function boundScript(script: Script, spec: readonly string[]): Script {
  return new Script(script.name, `local SPEC = { ${spec.map(luaString).join(', ')} }\n${script.source}`);
}

/**
 * A Lua string literal holding exactly the UTF-8 bytes of `value`: every byte is written as a three-digit
 * decimal escape, so no value can end the literal or become code, whatever it holds (quotes, backslashes,
 * newlines, NUL).
 */
export function luaString(value: string): string {
  let literal = '"';
  for (const byte of Buffer.from(value, 'utf8')) literal += `\\${String(byte).padStart(3, '0')}`;
  return `${literal}"`;
}
