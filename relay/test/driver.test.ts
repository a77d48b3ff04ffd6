import type { Action, Snapshot } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { PlaywrightDriver } from '../src/browser/playwright-driver';
import { SETTLE_NETWORK_MS } from '../src/browser/settle';
import { usePlaywrightDrivers } from './playwright-drivers';

const h = usePlaywrightDrivers();
const { open } = h;

/** The index of the element whose name or text is `name`, from a fresh snapshot. */
async function indexOf(driver: PlaywrightDriver, name: string): Promise<number> {
  const snap: Snapshot = await driver.snapshot();
  const found = snap.elements.find((e) => e.name === name || e.text === name);
  if (!found) throw new Error(`no element "${name}" in:\n${snap.text}`);
  return found.index;
}

const act = (driver: PlaywrightDriver, action: Action) => driver.act(action);
const text = async (driver: PlaywrightDriver) => (await driver.snapshot({ full_page: true })).text;

describe('PlaywrightDriver actions', () => {
  it('clicks with trusted input', async () => {
    const driver = await open('/events.html');
    const result = await act(driver, { action: 'click', index: await indexOf(driver, 'Check input'), double: false });
    expect(result).toMatchObject({ code: 'ok', events: [] });
    expect(await text(driver)).toContain('trusted click');
  });

  it('types with trusted keystrokes and submits', async () => {
    const driver = await open('/events.html');
    const index = await indexOf(driver, 'Search');
    const result = await act(driver, { action: 'type', index, text: 'shoes', clear: true, submit: true });
    expect(result).toMatchObject({
      code: 'ok',
      message: `Typed into <input "Search"> [${index}]; it now holds "shoes", then Enter was pressed.`,
    });
    const snap = await driver.snapshot();
    expect(snap.elements.find((e) => e.index === index)?.attributes.value).toBe('shoes');
    expect(snap.text).toContain('trusted keys: shoes');
    expect(snap.text).toContain('submitted: shoes');
  });

  it('says a field did not take the text when the page swallows the keystrokes, never "Typed"', async () => {
    const driver = await open('/events.html');
    const index = await indexOf(driver, 'Locked code');
    const result = await act(driver, { action: 'type', index, text: '42', clear: true, submit: false });
    expect(result.code).not.toBe('ok');
    expect(result.message).toContain('did not take "42"');
  });

  it('never echoes a typed password', async () => {
    const driver = await open('/login.html');
    const result = await act(driver, {
      action: 'type',
      index: await indexOf(driver, 'Password'),
      text: 'correct-horse',
      clear: true,
      submit: false,
    });
    expect(result).toMatchObject({ code: 'ok', message: 'Typed 13 characters into the password field.' });
    expect(JSON.stringify(result)).not.toContain('correct-horse');
    const email = await act(driver, {
      action: 'type',
      index: await indexOf(driver, 'Email address'),
      text: 'ada@example.com',
      clear: true,
      submit: true,
    });
    expect(email.message).toContain('ada@example.com');
    expect(await text(driver)).toContain('Signed in as ada@example.com');
  });

  it('types into a contenteditable editor with trusted keystrokes', async () => {
    const driver = await open('/visibility.html');
    const index = await indexOf(driver, 'Editable note');
    const result = await act(driver, { action: 'type', index, text: 'Hello', clear: true, submit: false });
    expect(result.message).toBe(`Typed into <div "Editable note"> [${index}]; it now holds "Hello".`);
    const after = await text(driver);
    expect(after).toContain('editor keys: trusted');
    expect(after).not.toContain('synthetic');
    expect((await driver.snapshot()).elements.find((e) => e.index === index)?.text).toBe('Hello');
  });

  it('presses arrow keys and modifier combinations with the trusted keyboard', async () => {
    const driver = await open('/events.html');
    await act(driver, { action: 'press_key', key: 'ArrowDown', modifiers: ['Control', 'Shift'] });
    expect(await text(driver)).toContain('last key: trusted ctrl+shift+ArrowDown');
    const search = await indexOf(driver, 'Search');
    const result = await act(driver, { action: 'press_key', key: 'ArrowLeft', modifiers: [], index: search });
    expect(result.message).toBe(`Pressed ArrowLeft on <input "Search"> [${search}].`);
    expect(await text(driver)).toContain('last key: trusted ArrowLeft');
  });

  it('hovers with the trusted mouse', async () => {
    const driver = await open('/events.html');
    const result = await act(driver, { action: 'hover', index: await indexOf(driver, 'Hover for help') });
    expect(result.code).toBe('ok');
    expect(await text(driver)).toContain('trusted hover');
  });

  it('returns within the settle bound when an action starts a request that never ends', async () => {
    const driver = await open('/events.html');
    const index = await indexOf(driver, 'Start a request that never ends');
    const started = performance.now();
    const result = await act(driver, { action: 'click', index, double: false });
    const elapsed = performance.now() - started;
    expect(result.code).toBe('ok');
    // Generous: the bound plus room for a slow machine, far below the request's "never".
    expect(elapsed).toBeLessThan(SETTLE_NETWORK_MS + 10_000);
    expect(h.site.requests).toContain('GET /hang');
    expect(await text(driver)).toContain('request started');
    // The hung request is not this action's: the next one settles on its own requests, not the bound.
    const next = performance.now();
    await act(driver, { action: 'click', index: await indexOf(driver, 'Check input'), double: false });
    expect(performance.now() - next).toBeLessThan(SETTLE_NETWORK_MS);
    expect(await text(driver)).toContain('trusted click');
  });

  it('types into a React-style controlled input so its state updates, replacing what was there', async () => {
    const driver = await open('/react-input.html');
    const index = await indexOf(driver, 'Display name');
    await act(driver, { action: 'type', index, text: 'Ada', clear: true, submit: false });
    await act(driver, { action: 'type', index, text: 'Grace Hopper', clear: true, submit: false });
    expect(await text(driver)).toContain('name=Grace Hopper');
  });

  it('reports a navigation caused by a click and is on the new page when act returns', async () => {
    const driver = await open('/events.html');
    const result = await act(driver, {
      action: 'click',
      index: await indexOf(driver, 'Go to the form'),
      double: false,
    });
    expect(result.code).toBe('navigation');
    expect(driver.url()).toBe(`${h.site.url}/form.html`);
    expect((await driver.snapshot()).title).toBe('Form');
  });

  it('is on the new page when act returns, even when it answers after the settle bound for requests', async () => {
    const driver = await open('/slow-link.html');
    const result = await act(driver, {
      action: 'click',
      index: await indexOf(driver, 'Open the slow page'),
      double: false,
    });
    expect(result).toMatchObject({ code: 'navigation', url: `${h.site.url}/slow?ms=4000` });
    expect(SETTLE_NETWORK_MS).toBeLessThan(4000);
    expect((await driver.snapshot()).title).toBe('Slow');
  });

  it('waits for the network requests an action started before returning', async () => {
    const driver = await open('/events.html');
    await act(driver, { action: 'click', index: await indexOf(driver, 'Load more'), double: false });
    // No polling: settle waited for the 400 ms fetch and the DOM update after it.
    expect(await text(driver)).toContain('Item loaded over the network');
  });

  it('answers stale_element for an index that no longer exists', async () => {
    const driver = await open('/events.html');
    const result = await act(driver, { action: 'click', index: 9999, double: false });
    expect(result.code).toBe('stale_element');
    expect(result.message).toMatch(/new snapshot/);
  });

  it('selects options and ticks boxes through the runtime', async () => {
    const driver = await open('/inputs.html');
    const snap = await driver.snapshot({ full_page: true });
    const country = snap.elements.find((e) => e.tag === 'select' && e.attributes.name === 'country');
    expect(country).toBeDefined();
    const result = await act(driver, { action: 'select_option', index: country!.index, option: 'Mexico' });
    expect(result).toMatchObject({ code: 'ok', value: 'Mexico' });
  });

  it('navigates, goes back and forward, and refuses URLs the policy forbids', async () => {
    const driver = await open('/index.html');
    expect((await act(driver, { action: 'navigate', url: `${h.site.url}/form.html` })).code).toBe('navigation');
    expect((await act(driver, { action: 'go_back' })).url).toBe(`${h.site.url}/index.html`);
    expect((await act(driver, { action: 'go_forward' })).url).toBe(`${h.site.url}/form.html`);
    // Past either end of the history nothing happens, and the agent is told so rather than "went back".
    expect(await act(driver, { action: 'go_forward' })).toMatchObject({
      code: 'invalid_target',
      message: `There is no next page in this tab; still at ${h.site.url}/form.html.`,
    });
    await act(driver, { action: 'go_back' });
    expect(await act(driver, { action: 'go_back' })).toMatchObject({
      code: 'invalid_target',
      message: `There is no previous page in this tab; still at ${h.site.url}/index.html.`,
    });
    // A same-document step (a #fragment) is a real move although Playwright answers it with null.
    await act(driver, { action: 'navigate', url: `${h.site.url}/index.html#part` });
    expect((await act(driver, { action: 'go_back' })).url).toBe(`${h.site.url}/index.html`);
    const strict = await PlaywrightDriver.open(h.host, {
      viewport: { width: 800, height: 600 },
      navigationTimeoutMs: 5000,
      logger: h.logger,
      checkUrl: async (url) => {
        if (!url.startsWith('https:')) throw new Error(`refused ${url}`);
      },
    });
    h.drivers.push(strict);
    await expect(strict.act({ action: 'navigate', url: 'file:///etc/passwd' })).rejects.toThrow(/refused/);
  });

  it('waits until text appears, and times out clearly when it does not', async () => {
    const driver = await open('/delayed.html?ms=300');
    const appeared = await act(driver, { action: 'wait', until_text: 'Order 1001' });
    expect(appeared.code, appeared.message).toBe('ok');
    const missing = await act(driver, { action: 'wait', until_text: 'never shown', ms: 300 });
    expect(missing.code).toBe('timeout');
  });
});

describe('PlaywrightDriver page events', () => {
  it('opens a page that shows a dialog while it is parsed, and reports the dialog with the next action', async () => {
    // Local sessions cannot promise this: the extension's dialog shim lands as the document commits,
    // after an inline script in the head may have run (README, local mode).
    const driver = await open('/welcome-alert.html');
    expect(await text(driver)).toContain('Parsed after the alert.');
    const result = await act(driver, { action: 'click', index: await indexOf(driver, 'Ask again'), double: false });
    expect(result.events.map((e) => e.message)).toEqual([
      'The page showed an alert dialog: "Welcome back!"; it was acknowledged.',
      'The page showed a confirm dialog: "Again?"; it was dismissed (Cancel) because the task did not ask to confirm it; the page got false.',
    ]);
    expect(await text(driver)).toContain('again: no');
  });

  it('follows a popup into its tab and lists the tabs', async () => {
    const driver = await open('/popup.html');
    const result = await act(driver, {
      action: 'click',
      index: await indexOf(driver, 'Open live chat'),
      double: false,
    });
    expect(result.events.map((e) => e.kind)).toContain('popup');
    expect(driver.url()).toBe(`${h.site.url}/popup-target.html?via=button`);
    const tabs = await driver.tabs();
    expect(tabs).toHaveLength(2);
    expect(tabs.find((t) => t.active)?.url).toBe(`${h.site.url}/popup-target.html?via=button`);
  });

  it('follows a target=_blank link into its new tab', async () => {
    const driver = await open('/popup.html');
    const result = await act(driver, {
      action: 'click',
      index: await indexOf(driver, 'Open the docs in a new tab'),
      double: false,
    });
    expect(result.events.map((e) => e.kind)).toEqual(['popup']);
    expect(driver.url()).toBe(`${h.site.url}/popup-target.html?via=link`);
    expect((await driver.snapshot()).title).toBe('Live chat');
  });

  it('goes back to the opener when a tab closes itself', async () => {
    const driver = await open('/popup.html');
    await act(driver, { action: 'click', index: await indexOf(driver, 'Open live chat'), double: false });
    expect(driver.url()).toBe(`${h.site.url}/popup-target.html?via=button`);
    const result = await act(driver, { action: 'click', index: await indexOf(driver, 'Close chat'), double: false });
    expect(result.code).not.toBe('error');
    // The close may land after act returned; the next action reports it either way.
    const events = [...result.events];
    if (!events.some((e) => e.kind === 'tab_closed')) {
      await expect.poll(async () => (await driver.tabs()).length).toBe(1);
      events.push(...(await act(driver, { action: 'scroll', direction: 'down', amount: 1 })).events);
    }
    expect(events.map((e) => e.kind)).toContain('tab_closed');
    expect(driver.url()).toBe(`${h.site.url}/popup.html`);
    expect(await driver.tabs()).toEqual([
      { index: 0, url: `${h.site.url}/popup.html`, title: 'Popup opener', active: true },
    ]);
    expect((await driver.snapshot()).text).toContain('Help center');
  });

  it('goes on in the opener when a tab closes itself in the middle of an action (not a dead browser)', async () => {
    const driver = await open('/popup.html');
    await act(driver, { action: 'click', index: await indexOf(driver, 'Open live chat'), double: false });
    expect(driver.url()).toBe(`${h.site.url}/popup-target.html?via=button`);
    const field = (await driver.snapshot()).elements.find((e) => e.attributes.name === 'goodbye');
    // The first keystroke closes the tab, so the keystrokes after it meet a closed page.
    const typed = await act(driver, {
      action: 'type',
      index: field!.index,
      text: 'Thanks for the help, and talk to you again soon!',
      clear: false,
      submit: false,
    });
    expect(typed).toMatchObject({ code: 'ok', message: 'The page closed its own tab in response to type.' });
    expect(typed.events.map((e) => e.kind)).toEqual(['tab_closed']);
    expect(driver.url()).toBe(`${h.site.url}/popup.html`);
    expect((await driver.snapshot()).text).toContain('Help center');
  });

  it('switches between tabs by their number in the tabs list', async () => {
    const driver = await open('/popup.html');
    await act(driver, { action: 'click', index: await indexOf(driver, 'Open the docs in a new tab'), double: false });
    // What this test is about is switching; when the new tab is reported is the previous test's matter.
    await expect.poll(async () => (await driver.tabs()).map((t) => t.active)).toEqual([false, true]);
    const back = await act(driver, { action: 'switch_tab', tab: 0 });
    expect(back).toMatchObject({ code: 'navigation', url: `${h.site.url}/popup.html` });
    expect(back.message).toContain('"Popup opener"');
    expect(driver.url()).toBe(`${h.site.url}/popup.html`);
    expect((await driver.tabs()).map((t) => t.active)).toEqual([true, false]);
    // Indices of the other tab's snapshot mean nothing here: the driver asks the runtime again.
    const open1 = await act(driver, { action: 'click', index: await indexOf(driver, 'Open live chat'), double: false });
    expect(open1.events.map((e) => e.kind)).toContain('popup');
    expect((await act(driver, { action: 'switch_tab', tab: 1 })).url).toBe(`${h.site.url}/popup-target.html?via=link`);
    const missing = await act(driver, { action: 'switch_tab', tab: 7 });
    expect(missing.code).toBe('invalid_target');
    expect(missing.message).toContain(`[0] ${h.site.url}/popup.html`);
    expect(driver.url()).toBe(`${h.site.url}/popup-target.html?via=link`);
  });

  it('refuses downloads and file choosers with a clear event', async () => {
    const driver = await open('/events.html');
    const download = await act(driver, {
      action: 'click',
      index: await indexOf(driver, 'Download report'),
      double: false,
    });
    expect(download.events).toEqual([
      { kind: 'download_refused', message: expect.stringContaining('(report.csv); downloads are not supported') },
    ]);
    expect(driver.url()).toBe(`${h.site.url}/events.html`);
    const upload = await act(driver, { action: 'click', index: await indexOf(driver, 'Attachment'), double: false });
    expect(upload.code).toBe('unsupported');
    expect(upload.message).toMatch(/uploading files is not supported/);
  });
});
