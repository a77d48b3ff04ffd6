import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChromiumPlaces, findChromium } from './chromium';

let dir: string;
let nowhere: ChromiumPlaces;
const executable = (path: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-chromium-'));
  nowhere = { systemPaths: [join(dir, 'usr/bin/chromium')], pathVariable: '', playwrightCache: join(dir, 'cache') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('finding Chromium', () => {
  it('names all three places and how to get one when there is none', () => {
    expect(() => findChromium(undefined, nowhere)).toThrow(
      expect.objectContaining({
        name: 'ChromiumNotFound',
        message: expect.stringMatching(
          /CHROMIUM_PATH \(not set\)[\s\S]*the system: .*usr\/bin\/chromium[\s\S]*Playwright's browser cache: .*cache[\s\S]*apt-get install -y chromium/,
        ),
      }),
    );
  });

  it('says CHROMIUM_PATH is wrong rather than searching elsewhere', () => {
    executable(nowhere.systemPaths[0]!);
    expect(() => findChromium(join(dir, 'missing'), nowhere)).toThrow(
      /CHROMIUM_PATH is set to .*missing, which does not exist/,
    );
  });

  it('takes CHROMIUM_PATH first, then the system, then PATH, then the newest Playwright build', () => {
    const cached = executable(join(nowhere.playwrightCache, 'chromium-1200/chrome-linux64/chrome'));
    executable(join(nowhere.playwrightCache, 'chromium-1100/chrome-linux64/chrome'));
    expect(findChromium(undefined, nowhere)).toBe(cached);
    const onPath = executable(join(dir, 'bin/chromium-browser'));
    expect(findChromium(undefined, { ...nowhere, pathVariable: join(dir, 'bin') })).toBe(onPath);
    const system = executable(nowhere.systemPaths[0]!);
    expect(findChromium(undefined, { ...nowhere, pathVariable: join(dir, 'bin') })).toBe(system);
    const chosen = executable(join(dir, 'my-chrome'));
    expect(findChromium(chosen, nowhere)).toBe(chosen);
  });
});
