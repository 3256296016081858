/** A command used wrongly (unknown model, bad option value): exit code 2, with the message. */
export class UsageError extends Error {}

/** Exit codes: 0 ok, 1 violations found (or left by repair), 2 usage errors and failures. */
export const EXIT_OK = 0;
export const EXIT_VIOLATIONS = 1;
export const EXIT_FAILURE = 2;
