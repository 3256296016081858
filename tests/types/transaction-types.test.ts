import { Attr, BaseEntity, CreateOptions, Model, transaction, Transaction } from '../../src';

/**
 * What the compiler accepts and refuses for transaction() and create()'s idempotency options. ts-jest type-checks
 * this file: every `// @ts-expect-error` line must fail to compile, and every other line must compile. The calls
 * that compile are not run (they need a connection): each test asserts what it builds.
 */

@Model()
class TtNote extends BaseEntity {
  @Attr() text!: string;
}

describe('transaction types', () => {
  it('takes a callback listing entities, sync or async, and resolves to what it returns', () => {
    const work = async (tx: Transaction): Promise<number> => {
      tx.save(TtNote.build({ text: 'a' }));
      tx.remove(TtNote.build({ text: 'b' }));
      // @ts-expect-error a plain object is no entity
      tx.save({ text: 'c' });
      // @ts-expect-error save takes one entity at a time
      tx.save([TtNote.build({ text: 'd' })]);
      return 1;
    };
    const typed: (run: typeof work) => Promise<number> = transaction;
    // @ts-expect-error the callback's result is what transaction resolves to
    const wrong: (run: typeof work) => Promise<string> = transaction;
    expect([typeof typed, typeof wrong]).toEqual(['function', 'function']);
  });

  it('types the idempotency options of create()', () => {
    const options: CreateOptions = { idempotencyKey: 'pay-1', idempotencyTtl: 60, validate: true };
    // @ts-expect-error the key is a string
    const numeric: CreateOptions = { idempotencyKey: 42 };
    // @ts-expect-error a misspelt option
    const misspelt: CreateOptions = { idempotenceKey: 'x' };
    const create = () => TtNote.create({ text: 'x' }, options);
    expect([options.idempotencyKey, typeof numeric, typeof misspelt, typeof create]).toEqual(['pay-1', 'object', 'object', 'function']);
  });
});
