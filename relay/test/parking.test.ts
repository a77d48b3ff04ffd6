import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import type { Action, Snapshot } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './manual-clock';
import { startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(() => site?.close());

async function accountOf(relay: TestRelay): Promise<string> {
  return (await relay.services.store.apiKeys.resolve(relay.key))!.accountId;
}

type AgentSession = Awaited<ReturnType<TestRelay['services']['app']['sessions']['find']>>;

/**
 * The test key's session, found as any call finds it (a parked one comes back from the store) and run as
 * an operation (so a parked one is revived first).
 */
async function inSession<T>(relay: TestRelay, id: string, work: (session: AgentSession) => Promise<T>): Promise<T> {
  const session = await relay.services.app.sessions.find(await accountOf(relay), id);
  return relay.services.sessions.run(session, () => work(session));
}

const indexOf = (snapshot: Snapshot, match: (e: Snapshot['elements'][number]) => boolean): number => {
  const element = snapshot.elements.find(match);
  if (!element) throw new Error(`no such element in ${snapshot.text}`);
  return element.index;
};

describe('parked sessions', () => {
  it('park and revive keep the page, a signed-in cookie and the form fields typed into it', async () => {
    const relay = await startTestRelay({ TANDEM_PARK_AFTER_SECONDS: 0 });
    try {
      const created = await relay.api('POST', '/v1/web/session', {
        body: { url: `${site.url}/account?signin=ada%20lovelace` },
      });
      expect(created.status).toBe(200);
      const id = created.body.session_id as string;
      await inSession(relay, id, async (session) => {
        const snapshot = await session.driver.snapshot();
        expect(snapshot.text).toContain('Signed in as ada lovelace');
        const act = (action: Action) => session.driver.act(action);
        await act({
          action: 'type',
          index: indexOf(snapshot, (e) => e.attributes.name === 'note'),
          text: 'half done',
          clear: true,
          submit: false,
        });
        await act({ action: 'check', index: indexOf(snapshot, (e) => e.attributes.name === 'keep'), checked: true });
        await act({ action: 'select_option', index: indexOf(snapshot, (e) => e.tag === 'select'), option: 'L' });
        await act({
          action: 'type',
          index: indexOf(snapshot, (e) => e.tag === 'textarea'),
          text: 'line one',
          clear: true,
          submit: false,
        });
      });

      const browser = await relay.services.browsers.get();
      const account = await accountOf(relay);
      const session = relay.services.sessions.get(account, id);
      expect(await relay.services.sessions.park(session)).toBe(true);
      expect(session.parked).toBe(true);
      await expect.poll(() => browser.contexts().length).toBe(0);
      expect(relay.services.sessions.parkedCount).toBe(1);
      // Out of memory, into the store: nothing of it is left here but its clock.
      expect(relay.services.sessions.isAway(account, id)).toBe(true);
      const record = await relay.services.store.sessionRecords.parked(account, id);
      expect(record?.record.url).toBe(`${site.url}/account`);
      expect(record?.state).toContain('"fixture_user","value":"ada%20lovelace"'); // the signed-in cookie
      // Still listed, without a browser.
      expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([id]);

      const revived = await inSession(relay, id, async (s) => ({
        snapshot: await s.driver.snapshot(),
        notice: s.notice,
        parked: s.parked,
      }));
      expect(browser.contexts()).toHaveLength(1);
      expect(revived.parked).toBe(false);
      expect(relay.services.sessions.parkedCount).toBe(0);
      expect(await relay.services.store.sessionRecords.parked(account, id)).toBeUndefined();
      expect(revived.snapshot.text).toContain('Signed in as ada lovelace');
      const field = (name: string) => revived.snapshot.elements.find((e) => e.attributes.name === name);
      expect(field('note')?.attributes.value).toBe('half done');
      expect(field('keep')?.states.checked).toBe(true);
      expect(revived.snapshot.elements.find((e) => e.tag === 'select')?.attributes.value).toBe('L');
      expect(revived.snapshot.elements.find((e) => e.tag === 'textarea')?.attributes.value).toBe('line one');
      expect(revived.notice).toMatch(/parked while idle and has been reopened at .*\/account/);
      expect(revived.notice).toMatch(/cookies and local storage restored, 4 form fields refilled/);
      expect(revived.notice).toMatch(/Not restored: .*script state/);
    } finally {
      await relay.close();
    }
  });

  it('a parked session outlives its relay: the next relay on the store brings it back, signed in', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tandem-parked-'));
    const first = await startTestRelay({ TANDEM_PARK_AFTER_SECONDS: 0.2, TANDEM_PLANNER: 'builtin' }, { dataDir });
    let second: TestRelay | undefined;
    try {
      const created = await first.api('POST', '/v1/web/session', { body: { url: `${site.url}/account?signin=ada` } });
      const id = created.body.session_id as string;
      const live = await first.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html` } });
      const liveId = live.body.session_id as string;
      await expect.poll(() => first.services.sessions.parkedCount, { timeout: 10_000 }).toBe(2);
      // Used again: this one is live when the relay stops, and ends with it.
      expect((await first.api('GET', `/v1/web/screenshot/${liveId}`)).status).toBe(200);
      await first.close();

      second = await startTestRelay(
        { TANDEM_PARK_AFTER_SECONDS: 0.2, TANDEM_PLANNER: 'builtin' },
        { dataDir, databaseUrl: first.databaseUrl },
      );
      expect((await second.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([id]);
      const step = await second.api('POST', `/v1/web/session/${id}`, {
        body: { cmd: 'Who is signed in?', stream: false },
      });
      expect(step.status, JSON.stringify(step.body)).toBe(200);
      expect(step.body.url).toBe(`${site.url}/account`);
      const account = await accountOf(second);
      const snapshot = await inSession(second, id, (s) => s.driver.snapshot());
      expect(snapshot.text).toContain('Signed in as ada');
      const gone = await second.api('POST', `/v1/web/session/${liveId}`, { body: { cmd: 'x', stream: false } });
      expect(gone.status).toBe(404);
      expect(gone.body.message).toMatch(/ended when its relay stopped or restarted/);
      expect(second.services.sessions.get(account, id).createdAt).toBeLessThan(Date.now() - 100);
    } finally {
      await first.close();
      await second?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a step on a parked session revives it and its first event says so', async () => {
    const relay = await startTestRelay({ TANDEM_PARK_AFTER_SECONDS: 0.3, TANDEM_PLANNER: 'builtin' });
    try {
      const created = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/account?signin=grace` } });
      const id = created.body.session_id as string;
      await expect.poll(() => relay.services.sessions.parkedCount, { timeout: 10_000 }).toBe(1);
      const step = await relay.api('POST', `/v1/web/session/${id}`, {
        body: { cmd: 'Tell me who is signed in', stream: true },
      });
      expect(step.status).toBe(200);
      const text = String(step.body);
      expect(text).toMatch(/parked while idle and has been reopened at/);
      expect(text.indexOf('reopened')).toBeLessThan(text.indexOf('final_event'));
      expect(relay.services.sessions.parkedCount).toBe(0);
    } finally {
      await relay.close();
    }
  });

  it('parks the least recently used idle session at TANDEM_MAX_SESSIONS instead of refusing', async () => {
    const relay = await startTestRelay({ TANDEM_MAX_SESSIONS: 2, TANDEM_PARK_AFTER_SECONDS: 0 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/account?signin=u${i}` } });
        expect(res.status).toBe(200);
        ids.push(res.body.session_id as string);
      }
      const account = await accountOf(relay);
      const parked = () => ids.map((id) => relay.services.sessions.isAway(account, id));
      expect(parked()).toEqual([true, false, false]);
      // Using the first again parks the one now least recently used (the second).
      expect((await relay.api('GET', `/v1/web/screenshot/${ids[0]}`)).status).toBe(200);
      expect(parked()).toEqual([false, true, false]);
      expect(relay.services.sessions.get(account, ids[0] as string).parked).toBe(false);
      const browser = await relay.services.browsers.get();
      await expect.poll(() => browser.contexts().length).toBe(2);
    } finally {
      await relay.close();
    }
  });

  it('answers 503 only when no live session can be parked (all still opening)', async () => {
    const relay = await startTestRelay({ TANDEM_MAX_SESSIONS: 2 });
    try {
      const slow = [0, 1].map(() =>
        relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/slow?ms=3000` } }),
      );
      // Chromium starts with the first create: on a loaded machine that alone takes seconds.
      await expect
        .poll(() => site.requests.filter((r) => r.startsWith('GET /slow')).length, { timeout: 30_000 })
        .toBeGreaterThanOrEqual(2);
      const full = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } });
      expect(full.status).toBe(503);
      expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await relay.close();
    }
  });

  it('a parked session expires after 10 idle minutes like a live one (the defaults, on a clock the test moves)', async () => {
    const clock = new ManualClock();
    const relay = await startTestRelay({}, { clock });
    try {
      const listed = async () =>
        [...((await relay.api('GET', '/v1/web/sessions')).body.session_ids as string[])].sort();
      const parked = (await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } })).body
        .session_id as string;
      clock.advance(60_000);
      const live = (await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } })).body
        .session_id as string;
      // TANDEM_PARK_AFTER_SECONDS (300) after its last use, the first parks; the other is still live.
      clock.advance(4 * 60_000);
      const account = await accountOf(relay);
      await expect.poll(() => relay.services.sessions.isAway(account, parked), { timeout: 10_000 }).toBe(true);
      expect(relay.services.sessions.parkedCount).toBe(1);
      clock.advance(4 * 60_000 + 59_000);
      expect(await listed()).toEqual([parked, live].sort());
      // Ten minutes (TANDEM_SESSION_IDLE_SECONDS, 600) after its last use: expired, parked or not.
      clock.advance(1_000);
      await expect.poll(listed, { timeout: 10_000 }).toEqual([live]);
      const res = await relay.api('GET', `/v1/web/screenshot/${parked}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/expired after being idle/);
      // And the live one, a minute later.
      clock.advance(60_000);
      await expect.poll(listed, { timeout: 10_000 }).toEqual([]);
      expect((await relay.api('GET', `/v1/web/screenshot/${live}`)).body.message).toMatch(/expired after being idle/);
    } finally {
      await relay.close();
    }
  });

  it('200 retrieves in a row without closing their sessions all answer 200 with TANDEM_MAX_SESSIONS=20', async () => {
    const relay = await startTestRelay({ TANDEM_MAX_SESSIONS: 20 });
    try {
      const browser = await relay.services.browsers.get();
      let peak = 0;
      for (let i = 0; i < 200; i++) {
        const res = await relay.api('POST', '/v1/web/retrieve', {
          body: { url: `${site.url}/retrieve/table.html?page=${i}`, cmd: 'the rows of the table' },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        peak = Math.max(peak, browser.contexts().length);
      }
      expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).toHaveLength(200);
      expect(peak).toBeLessThanOrEqual(20);
      await expect.poll(() => relay.services.sessions.parkedCount).toBe(200);
    } finally {
      await relay.close();
    }
  }, 300_000);
});
