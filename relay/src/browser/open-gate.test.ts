import { describe, expect, it } from 'vitest';
import { OpenGate } from './open-gate';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe('OpenGate', () => {
  it('runs at most `limit` operations at once and the rest in arrival order', async () => {
    const gate = new OpenGate(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      gate.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }, 60_000),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(gate.waiting).toBe(2);
    gates[1]!.resolve();
    await runs[1];
    await expect.poll(() => started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(gate.waiting).toBe(0);
  });

  it('passes the turn on when an operation fails', async () => {
    const gate = new OpenGate(1);
    await expect(gate.run(async () => Promise.reject(new Error('no page')), 60_000)).rejects.toThrow('no page');
    await expect(gate.run(async () => 'next', 60_000)).resolves.toBe('next');
  });

  it('gives up the turn of an operation that holds it too long, which still ends as it will', async () => {
    const gate = new OpenGate(1);
    const stuck = deferred();
    const slow = gate.run(() => stuck.promise.then(() => 'late'), 50);
    await expect(gate.run(async () => 'after', 60_000)).resolves.toBe('after');
    stuck.resolve();
    await expect(slow).resolves.toBe('late');
    // The late release changes nothing: one turn, one holder.
    const order: string[] = [];
    const hold = deferred();
    const a = gate.run(async () => {
      order.push('a');
      await hold.promise;
    }, 60_000);
    const b = gate.run(async () => {
      order.push('b');
    }, 60_000);
    await Promise.resolve();
    expect(order).toEqual(['a']);
    hold.resolve();
    await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
  });
});
