/** Writes the result of a command: JSON on one line with --json, the readable form otherwise. */
export function print(json: boolean, data: unknown, readable: () => string): void {
  process.stdout.write(`${json ? JSON.stringify(data) : readable()}\n`);
}
