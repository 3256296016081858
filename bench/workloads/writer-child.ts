/**
 * One writer of the bulk workload, alone in its process (writer-process.ts starts it): each library then
 * runs on a heap and compiled code of its own. In one process they would share them, and with them V8's
 * allocation-site feedback: a library keeping many commands in flight makes V8 allocate node-redis's command
 * records (and Node's buffered socket writes) directly in the old generation, where each one, though dead,
 * keeps what it points to alive through every young-generation collection until the next full one. Every
 * writer on node-redis after it then paid for that (in one process, saveMany after the hand-written bulk
 * load: 70,600 and 89,900 posts/s, against 103,800 and 98,800 without it).
 *
 * Started with its WriterSetup (JSON) as argument; answers `run` with the seconds, the CPU time, the
 * garbage-collection pauses and the page faults of one bulk create of the first `size` posts on the emptied
 * database, and the writer's own count of what it stored.
 */
import 'reflect-metadata';
import { PerformanceObserver } from 'perf_hooks';
import { failureText } from './bench-child';
import { makePosts } from './posts';
import { openWriter } from './bulk-writers';
import type { FromWriter, ToWriter, WriterSetup } from './writer-messages';

const send = (message: FromWriter) => process.send!(message);

async function main(): Promise<void> {
  const setup = JSON.parse(process.argv[2]) as WriterSetup;
  const writer = await openWriter(setup.kind, setup.url, setup.prefix);
  const { posts } = makePosts(setup.posts, setup.seed, 0);
  // the main thread's garbage-collection pauses so far, in milliseconds (each reported once it has ended)
  let paused = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) paused += entry.duration;
  }).observe({ entryTypes: ['gc'] });
  // the pauses up to now, their entries delivered: Node queues each entry as an immediate once the pause has
  // ended, and hands it to the observer on a later one
  const pausedSoFar = () => new Promise<number>((resolve) => setImmediate(() => setImmediate(() => resolve(paused))));
  // one message at a time: the suite waits for each answer before it sends the next
  process.on('message', (message: ToWriter) => {
    if (message.type === 'close') {
      void writer.close().finally(() => process.disconnect());
      return;
    }
    void (async () => {
      try {
        writer.reset(message.size);
        writer.prepare?.(posts, 0, message.size);
        const pausedBefore = await pausedSoFar();
        const faults = process.resourceUsage().minorPageFault;
        const cpu = process.cpuUsage();
        const began = process.hrtime.bigint();
        await writer.bulkCreate(posts, 0, message.size);
        const seconds = Number(process.hrtime.bigint() - began) / 1e9;
        const used = process.cpuUsage(cpu);
        const pageFaults = process.resourceUsage().minorPageFault - faults;
        const gcMicros = ((await pausedSoFar()) - pausedBefore) * 1000;
        send({
          type: 'ran',
          seconds,
          cpuMicros: used.user + used.system,
          gcMicros,
          pageFaults,
          stored: writer.count ? await writer.count() : null,
        });
      } catch (error) {
        send({ type: 'failed', message: failureText(error) });
      }
    })();
  });
  send({ type: 'ready', name: writer.name, method: writer.bulkMethod() });
}

main().catch((error: unknown) => {
  send({ type: 'failed', message: failureText(error) });
  process.exitCode = 1;
  process.disconnect();
});
