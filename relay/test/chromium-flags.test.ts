import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromiumArgs, findChromium } from '../src/browser/chromium';

// Chromium honours only the last --disable-features switch; Playwright passes its own before ours, so
// ours must carry every feature of Playwright's or those come back on unseen.
let browser: Awaited<ReturnType<typeof chromium.launch>>;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: chromiumArgs() });
});
afterAll(async () => {
  await browser?.close();
});

it("the --disable-features switch that wins carries every feature of the earlier ones (Playwright's)", async () => {
  const page = await browser.newPage();
  await page.goto('chrome://version');
  const commandLine = await page.locator('#command_line').innerText();
  const lists = [...commandLine.matchAll(/--disable-features=(\S+)/g)].map((m) => (m[1] ?? '').split(','));
  expect(lists.length, commandLine).toBeGreaterThan(0);
  const winning = new Set(lists.at(-1));
  const dropped = lists
    .slice(0, -1)
    .flat()
    .filter((feature) => !winning.has(feature));
  expect(dropped, 'add these to DISABLED_FEATURES in relay/src/browser/chromium.ts').toEqual([]);
  expect(winning).toContain('PreconnectToSearch');
  await page.close();
});
