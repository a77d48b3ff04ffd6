import { describe, expect, it } from 'vitest';
import { parseOptions, parseSeeds, selectNames, UsageError } from './cli';

describe('eval flags', () => {
  it('reads seeds as ranges and lists', () => {
    expect(parseSeeds('1-3')).toEqual(['1', '2', '3']);
    expect(parseSeeds('7, 1-2,7')).toEqual(['7', '1', '2']);
    expect(() => parseSeeds('3-1')).toThrow(UsageError);
    expect(() => parseSeeds('1-5000')).toThrow(/at most 1000/);
    expect(() => parseSeeds('one')).toThrow(/neither a number nor a range/);
  });

  it('takes suites and options, with defaults', () => {
    const options = parseOptions(['--miniwob', 'dir', '--tasks', 'a,b', '--seeds', '1-2', '--parallel', '3']);
    expect(options).toMatchObject({ miniwob: 'dir', tasks: ['a', 'b'], seeds: ['1', '2'], parallel: 3, maxSteps: 20 });
    expect(parseOptions(['--fixtures', '--part', '2/3', '--fail-under', '100'])).toMatchObject({
      fixtures: true,
      part: { k: 2, n: 3 },
      failUnder: 100,
    });
  });

  it('says what is wrong with a bad flag', () => {
    expect(() => parseOptions([])).toThrow(/at least one suite/);
    expect(() => parseOptions(['--fixtures', '--bogus'])).toThrow(UsageError);
    expect(() => parseOptions(['--fixtures', '--parallel', '0'])).toThrow(/--parallel/);
    expect(() => parseOptions(['--fixtures', '--part', '3/2'])).toThrow(/--part/);
    expect(() => parseOptions(['--fixtures', '--mode', 'turbo'])).toThrow(/--mode/);
    expect(() => parseOptions(['--fixtures', '--relay', 'http://127.0.0.1:8787'])).toThrow(/go together/);
    expect(() => parseOptions(['--fixtures', '--relay', 'ftp://x', '--key', 'k'])).toThrow(/http/);
    expect(() => parseOptions(['--fixtures', '--fail-under', '120'])).toThrow(/percentage/);
  });

  it('splits task names into stable parts that cover every name once', () => {
    const names = Array.from({ length: 40 }, (_, i) => `task-${i}`);
    const one = selectNames(names, { part: { k: 1, n: 2 } });
    const two = selectNames(names, { part: { k: 2, n: 2 } });
    expect([...one, ...two].sort()).toEqual([...names].sort());
    expect(one.length).toBeGreaterThan(5);
    expect(two.length).toBeGreaterThan(5);
    expect(selectNames(names, { part: { k: 1, n: 2 } })).toEqual(one);
    expect(selectNames(names, { tasks: ['task-3', 'nope'] })).toEqual(['task-3']);
  });
});
