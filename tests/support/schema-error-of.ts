import { SchemaError } from '../../src';

/** The SchemaError that `define` throws (it defines a class); the test fails when it throws none or another. */
export function schemaErrorOf(define: () => unknown): SchemaError {
  let caught: unknown;
  try {
    define();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SchemaError);
  return caught as SchemaError;
}
