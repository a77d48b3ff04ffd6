import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScreenshotStore } from './screenshots';

const HOUR = 3_600_000;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-shots-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('screenshot files', () => {
  it('are named by a 128-bit token and their kind, and deleted once older than the TTL', async () => {
    const store = new ScreenshotStore(dir, 24 * HOUR);
    const old = await store.save(Buffer.from('old'));
    const fresh = await store.save(Buffer.from('fresh'), 'jpg');
    expect(old).toMatch(/^[0-9A-Za-z]{22}\.png$/);
    expect(fresh).toMatch(/^[0-9A-Za-z]{22}\.jpg$/);
    expect(await store.read(fresh)).toEqual({ image: Buffer.from('fresh'), kind: 'jpg' });
    expect(old).not.toBe(fresh);
    const oldPath = store.pathOf(old)!;
    const dayAndAMinuteAgo = (Date.now() - 24 * HOUR - 60_000) / 1000;
    utimesSync(oldPath, dayAndAMinuteAgo, dayAndAMinuteAgo);

    expect(await store.sweep()).toBe(1);
    expect(existsSync(oldPath)).toBe(false);
    expect(existsSync(store.pathOf(fresh)!)).toBe(true);
    expect(await store.sweep(Date.now() + 25 * HOUR)).toBe(1);
    expect(existsSync(store.pathOf(fresh)!)).toBe(false);
  });

  it('never map a malformed name to a path', async () => {
    const store = new ScreenshotStore(dir, HOUR);
    const names = ['../tandem', 'short', `${'A'.repeat(22)}/x`, `${'A'.repeat(21)}.`, `${'A'.repeat(22)}.gif`];
    for (const name of [...names, `../${'A'.repeat(22)}.png`, `${'A'.repeat(22)}.png/..`]) {
      expect(store.pathOf(name)).toBeUndefined();
      expect(await store.read(name)).toBeUndefined();
    }
  });
});
