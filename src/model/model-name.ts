/** The rule for model and group names: 1 to 64 letters, digits or _, not starting with a digit. */
const MODEL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Whether `name` follows the rule for model and group names (no brace, colon or slash: it goes in a hash tag). */
export function isValidModelName(name: unknown): name is string {
  return typeof name === 'string' && MODEL_NAME.test(name);
}
