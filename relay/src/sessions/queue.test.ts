import { describe, expect, it } from 'vitest';
import { QueueWaitTimeout, SerialQueue } from './queue';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe('SerialQueue', () => {
  it('runs operations one at a time in the order they were queued', async () => {
    const queue = new SerialQueue(10_000);
    const log: string[] = [];
    const gate = deferred();
    const a = queue.run(async () => {
      log.push('a start');
      await gate.promise;
      log.push('a end');
    });
    const b = queue.run(async () => log.push('b'));
    const c = queue.run(async () => log.push('c'));
    expect(queue.pending).toBe(3);
    gate.resolve();
    await Promise.all([a, b, c]);
    expect(log).toEqual(['a start', 'a end', 'b', 'c']);
    expect(queue.pending).toBe(0);
  });

  it('keeps going after an operation fails', async () => {
    const queue = new SerialQueue(10_000);
    await expect(queue.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(queue.run(async () => 'next')).resolves.toBe('next');
  });

  it('gives up on an operation that waits too long, never runs it, and keeps the order behind it', async () => {
    const queue = new SerialQueue(50);
    const gate = deferred();
    const ran: string[] = [];
    const slow = queue.run(() => gate.promise);
    const impatient = queue.run(async () => ran.push('impatient'));
    await expect(impatient).rejects.toBeInstanceOf(QueueWaitTimeout);
    gate.resolve();
    await slow;
    await queue.run(async () => ran.push('later'));
    expect(ran).toEqual(['later']);
  });

  it('gives up on an operation whose signal aborts while it waits, never runs it, and keeps the order', async () => {
    const queue = new SerialQueue(10_000);
    const gate = deferred();
    const ran: string[] = [];
    const slow = queue.run(() => gate.promise);
    const client = new AbortController();
    const leaving = queue.run(async () => ran.push('left'), client.signal);
    const staying = queue.run(async () => ran.push('stayed'));
    client.abort(new Error('client gone'));
    await expect(leaving).rejects.toThrow('client gone');
    expect(queue.pending).toBe(2);
    gate.resolve();
    await Promise.all([slow, staying]);
    expect(ran).toEqual(['stayed']);
    // Already aborted: never queued at all.
    await expect(queue.run(async () => ran.push('late'), AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(ran).toEqual(['stayed']);
  });
});
