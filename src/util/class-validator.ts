import type * as ClassValidatorModule from 'class-validator';

/** class-validator's module: an optional peer dependency, which the application installs to write rules. */
export type ClassValidator = typeof ClassValidatorModule;

/**
 * Whether `error` says class-validator itself is missing: Node's "Cannot find module 'class-validator'", or the
 * require an ES module bundle leaves for a package it could not find.
 */
function notInstalled(error: unknown): boolean {
  const firstLine = error instanceof Error ? error.message.split('\n')[0] : '';
  return /^Cannot find module ['"]class-validator['"]|^Dynamic require of "class-validator"/.test(firstLine);
}

/**
 * Loaded with redis-record, as a static import would be, so that the first save does not pay for it. An installed
 * class-validator that fails to load (one of its own imports missing, say) throws, rather than let rules go
 * unchecked.
 */
function load(): ClassValidator | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only where installed
    return require('class-validator') as ClassValidator;
  } catch (error) {
    if (notInstalled(error)) return undefined;
    throw error;
  }
}

const classValidator = load();

/** class-validator when the application has it installed, else undefined: then no model can carry a rule. */
export function optionalClassValidator(): ClassValidator | undefined {
  return classValidator;
}
