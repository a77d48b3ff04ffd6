// Pages that hang: a script that never yields (on load, while parsing, on a click, or again after every
// stop) and a response that never ends. Nothing may wait forever; each call answers and says what happened.
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from './support';

const SCRIPT_TIMEOUT_MS = 3000;
const NAVIGATION_TIMEOUT_MS = 5000;
const STOPPED = /A script on the page kept it busy for more than 3 s without a pause, so it was stopped/;

let site: FixtureSite;
let relay: TestRelay;
beforeAll(async () => {
  site = await startFixtureSite();
  relay = await startTestRelay({
    TANDEM_PLANNER: 'builtin',
    TANDEM_SCRIPT_TIMEOUT_MS: SCRIPT_TIMEOUT_MS,
    TANDEM_NAVIGATION_TIMEOUT_MS: NAVIGATION_TIMEOUT_MS,
  });
});
afterEach(() => relay.services.sessions.closeAll());
afterAll(async () => {
  await relay?.close();
  await site?.close();
});

async function create(path: string) {
  return relay.api('POST', '/v1/web/session', { body: { url: `${site.url}${path}` } });
}

async function step(id: string, cmd: string) {
  return relay.api('POST', `/v1/web/session/${id}`, { body: { cmd, stream: false } });
}

/** The relay's own Playwright page showing `url` (the page a session drives). */
async function pageAt(url: string): Promise<Page> {
  const browser = await relay.services.browsers.get();
  const page = browser
    .contexts()
    .flatMap((c) => c.pages())
    .find((p) => p.url() === url);
  if (!page) throw new Error(`no page at ${url}`);
  return page;
}

/**
 * Makes a script on the page spin: once, or for good. For good is a synchronous request that never ends
 * (busy.html's trick): a script re-armed with setInterval leaves a gap after each stop that a call can slip
 * through on a loaded machine, so whether the page counted as stuck came down to timing.
 */
async function spin(url: string, forever = false): Promise<void> {
  const page = await pageAt(url);
  if (forever) {
    // A string: the relay's tests have no DOM types, and this runs in the page.
    await page.evaluate(
      "setTimeout(() => { const r = new XMLHttpRequest(); r.open('GET', '/endless', false); r.send(); }, 0)",
    );
    return;
  }
  await page.evaluate(() => {
    setTimeout(() => {
      for (;;) {}
    }, 0);
  });
}

describe('a script that never yields', () => {
  it('is stopped wherever it starts: create, step, screenshot and retrieve all answer and say so', async () => {
    // On load: the create's own calls into the page are what find it.
    const created = await create('/busy.html?spin=load');
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.message).toBe('Session created; opened "Busy page".');
    const id = created.body.session_id as string;
    const url = `${site.url}/busy.html?spin=load`;

    // In a click handler: the trusted click itself waits on the page.
    const clicked = await step(id, 'click Freeze the page');
    expect(clicked.status, JSON.stringify(clicked.body)).toBe(200);
    expect(clicked.body.status).toBe('CONTINUE');
    expect(clicked.body.message).toMatch(/Clicked/);
    expect(clicked.body.message).toMatch(STOPPED);

    // While the step reads the page.
    await spin(url);
    const read = await step(id, 'scroll down');
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.message).toMatch(STOPPED);

    await spin(url);
    const shot = await relay.api('GET', `/v1/web/screenshot/${id}`);
    expect(shot.status, JSON.stringify(shot.body)).toBe(200);
    const png = await fetch(shot.body.screenshot as string);
    expect(png.headers.get('content-type')).toBe('image/png');

    await spin(url);
    const retrieved = await relay.api('POST', '/v1/web/retrieve', {
      body: { cmd: 'the page text', session_id: id, mode: 'ludicrous' },
    });
    expect(retrieved.status, JSON.stringify(retrieved.body)).toBe(200);
    expect(JSON.stringify(retrieved.body)).toContain('Busy page');

    // Screenshots and retrieve carry no messages: the next step tells of those stops, once.
    const told = await step(id, 'scroll up');
    expect(told.status).toBe(200);
    expect(String(told.body.message).match(new RegExp(STOPPED, 'g'))).toHaveLength(1);
    // Stopped, the page is a page again: the step after has nothing to report.
    const after = await step(id, 'scroll down');
    expect(after.status).toBe(200);
    expect(after.body.message).not.toMatch(STOPPED);
  });

  it('is stopped while the page parses, so the page opens and the rest of it is read', async () => {
    const created = await create('/busy.html?spin=parse');
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const accountId = (await relay.services.store.apiKeys.resolve(relay.key))!.accountId;
    const session = relay.services.sessions.get(accountId, created.body.session_id as string);
    expect((await session.driver.snapshot()).text).toContain('After the script.');
  });

  it('that starts again after every stop has its tab closed; the call says so and the session goes on', async () => {
    const created = await create('/index.html');
    const id = created.body.session_id as string;
    await spin(`${site.url}/index.html`, true);
    const stuck = await step(id, 'scroll down');
    expect(stuck.status, JSON.stringify(stuck.body)).toBe(400);
    expect(stuck.body.message).toBe(
      `The page at ${site.url}/index.html stopped responding: its scripts kept running without a pause, even after being stopped 3 times, so its tab was closed. The session goes on in a new blank tab: open a page to continue.`,
    );
    expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([id]);

    const reopened = await step(id, `open ${site.url}/form.html`);
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body.url).toBe(`${site.url}/form.html`);
    // What was said about the closed page's scripts stays with it.
    expect(reopened.body.message).not.toMatch(/stopped/);
    expect((await step(id, 'scroll down')).status).toBe(200);
  });

  it('on a page being opened by create: 400 saying so, and no session is left behind', async () => {
    const created = await create('/busy.html?spin=always');
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    expect(created.body.message).toMatch(/busy\.html\?spin=always stopped responding: .*its tab was closed/);
    expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);
  });

  it('in one session leaves the others alone: they answer while it is being stopped', async () => {
    const busy = (await create('/index.html')).body.session_id as string;
    // Blocked in a synchronous request that never ends, the page has no gap between stops in which a call
    // could slip through on a loaded machine: it stays stuck until its tab is closed.
    await (await pageAt(`${site.url}/index.html`)).evaluate((endless) => {
      setTimeout(() => {
        // The relay's tsconfig has no DOM types; this runs in the page.
        const Xhr = (
          globalThis as unknown as {
            XMLHttpRequest: new () => { open(method: string, url: string, async: boolean): void; send(): void };
          }
        ).XMLHttpRequest;
        const request = new Xhr();
        request.open('GET', endless, false);
        request.send();
      }, 0);
    }, `${site.url}/endless`);
    let busyAnswered = 0;
    const stuck = step(busy, 'scroll down').then((res) => {
      busyAnswered = Date.now();
      return res;
    });

    const other = await create('/form.html');
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    const id = other.body.session_id as string;
    const typed = await step(id, 'type Ada into Name');
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    expect(typed.body.message).not.toMatch(/stopped/);
    const shot = await relay.api('GET', `/v1/web/screenshot/${id}`);
    expect(shot.status).toBe(200);
    const otherDone = Date.now();

    expect((await stuck).status).toBe(400);
    expect(otherDone).toBeLessThan(busyAnswered);
  });
});

describe('a page whose response never ends', () => {
  it('fails a create after the navigation timeout, and a step that opens it says so; the session goes on', async () => {
    const started = Date.now();
    const created = await create('/endless');
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    expect(created.body.message).toBe(
      `Could not open ${site.url}/endless: the page did not load within 5 s. Check that the URL is right and the site is reachable from the relay.`,
    );
    expect(Date.now() - started).toBeLessThan(NAVIGATION_TIMEOUT_MS + 10_000);
    expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);

    const id = (await create('/index.html')).body.session_id as string;
    const opened = await step(id, `open ${site.url}/endless`);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.status).toBe('CONTINUE');
    expect(opened.body.message).toContain(`Could not open ${site.url}/endless: the page did not load within 5 s.`);

    // What arrived of the page is there to read, capture and retrieve while the rest never comes.
    const shot = await relay.api('GET', `/v1/web/screenshot/${id}`);
    expect(shot.status, JSON.stringify(shot.body)).toBe(200);
    const retrieved = await relay.api('POST', '/v1/web/retrieve', {
      body: { cmd: 'the links', session_id: id, mode: 'ludicrous', fields: ['text', 'url'] },
    });
    expect(retrieved.status, JSON.stringify(retrieved.body)).toBe(200);
    const back = await step(id, `open ${site.url}/index.html`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.url).toBe(`${site.url}/index.html`);
  });
});
