/**
 * One writer of Table I, alone in its process (table-one-process.ts starts it), as each writer of the bulk
 * workload is (writer-child.ts): in one process the four libraries would share a heap, and each would pay for
 * collecting what the others allocate and keep (nohm's loaded models, the other libraries' instances), and share
 * V8's allocation-site feedback with them. An application holds one of them.
 *
 * Started with its TableOneSetup (JSON) as argument; answers each request of table-one-messages.ts in turn. A
 * `time` request runs one block of a step on the posts [from, to), `concurrency` in flight, and answers with its
 * seconds; the load step checks each content it loads.
 */
import 'reflect-metadata';
import { check } from '../support/measure';
import { inFlight } from '../peers/peer';
import { failureText } from './bench-child';
import { makePosts } from './posts';
import type { Operation } from './table-one';
import type { FromTableOne, TableOneSetup, ToTableOne } from './table-one-messages';
import { openTableOneWriter } from './table-one-writers';

const send = (message: FromTableOne) => process.send!(message);

async function main(): Promise<void> {
  const setup = JSON.parse(process.argv[2]) as TableOneSetup;
  const writer = await openTableOneWriter(setup.kind, setup.url, setup.prefix);
  const made = makePosts(setup.posts, setup.seed, setup.used);
  const posts = made.posts.slice(0, setup.used);
  const { newContent } = made;
  const { count } = writer;
  const steps: Record<Operation, (i: number) => Promise<unknown>> = {
    create: (i) => writer.create(posts[i], i),
    count: () => count!(),
    load: async (i) => check((await writer.load(i)) === posts[i].content, `${writer.name}: post ${i} loaded wrong content`),
    update: (i) => writer.update(newContent[i], i),
    delete: (i) => writer.remove(i),
  };
  const answer = async (message: Exclude<ToTableOne, { type: 'close' }>): Promise<FromTableOne> => {
    switch (message.type) {
      case 'reset':
        writer.reset(message.size);
        return { type: 'done' };
      case 'time': {
        const step = steps[message.operation];
        const began = process.hrtime.bigint();
        await inFlight(message.from, message.to, message.concurrency, step);
        return { type: 'timed', seconds: Number(process.hrtime.bigint() - began) / 1e9 };
      }
      case 'count':
        return { type: 'counted', count: await count!() };
      case 'load':
        return { type: 'loaded', content: await writer.load(message.i) };
    }
  };
  // one message at a time: the suite waits for each answer before it sends the next
  process.on('message', (message: ToTableOne) => {
    if (message.type === 'close') {
      void writer.close().finally(() => process.disconnect());
      return;
    }
    answer(message).then(send, (error: unknown) => send({ type: 'failed', message: failureText(error) }));
  });
  send({ type: 'ready', counts: count !== undefined });
}

main().catch((error: unknown) => {
  send({ type: 'failed', message: failureText(error) });
  process.exitCode = 1;
  process.disconnect();
});
