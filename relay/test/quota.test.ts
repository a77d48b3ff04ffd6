import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decision, indexIn, useAgentRelay } from './agent-support';
import { runRelayCli } from './relay-process';

const h = useAgentRelay();
let accountId: string;

beforeAll(async () => {
  accountId = (await h.relay.services.store.apiKeys.resolve(h.relay.key))?.accountId as string;
});
afterEach(async () => {
  await h.relay.services.store.quotas.setMonthlySteps(accountId, null);
});

/** The first day of the next month (UTC), as the 402 message names it. */
function nextMonth(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

describe('the monthly step quota', () => {
  it('counts the steps run this month; used up, browse, step and retrieve answer 402 before any work', async () => {
    const id = await h.createSession('/login.html');
    const used = await h.relay.services.store.usage.stepsSince(accountId, '2000-01-01');
    // One step left: it runs, and is counted.
    await h.relay.services.store.quotas.setMonthlySteps(accountId, used + 1);
    h.model.script((request) => decision([{ action: 'click', index: indexIn(request, /<button>Sign in/) }]));
    const step = await h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'Sign in', stream: false } });
    expect(step.status, JSON.stringify(step.body)).toBe(200);

    const requestsBefore = h.site.requests.length;
    const modelBefore = h.model.requests.length;
    const sessionsBefore = h.relay.services.sessions.size;
    const calls = [
      ['/v1/web/browse', { cmd: 'Open the form', url: `${h.site.url}/form.html` }],
      [`/v1/web/session/${id}`, { cmd: 'Go on', stream: false }],
      [`/v1/web/session/${id}`, { cmd: 'Go on', stream: true }],
      ['/v1/web/retrieve', { cmd: 'the links', url: `${h.site.url}/index.html` }],
    ] as const;
    for (const [path, body] of calls) {
      const refused = await h.relay.api('POST', path, { body });
      expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(402);
      expect(refused.body).toMatchObject({ error: 'Payment Required' });
      expect(refused.body.message).toContain(`has used ${used + 1} of its ${used + 1} agent steps for this month`);
      expect(refused.body.message).toContain(`resets on ${nextMonth()} at 00:00 UTC`);
    }
    // Nothing ran: no page was loaded, no model called, no session opened.
    expect(h.site.requests.length).toBe(requestsBefore);
    expect(h.model.requests.length).toBe(modelBefore);
    expect(h.relay.services.sessions.size).toBe(sessionsBefore);

    // Lifted: the same session goes on.
    await h.relay.services.store.quotas.setMonthlySteps(accountId, null);
    h.model.script(decision([{ action: 'done', message: 'Done.' }]));
    const again = await h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'Go on', stream: false } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it("counts only this month's steps", async () => {
    const store = h.relay.services.store;
    const lastMonth = new Date();
    lastMonth.setUTCDate(1);
    lastMonth.setUTCDate(0); // the last day of the month before
    const before = await store.usage.stepsSince(accountId, '2000-01-01');
    await store.usage.record(
      accountId,
      { steps: 500, promptTokens: 0, completionTokens: 0, cachedTokens: 0 },
      lastMonth,
    );
    expect(await store.usage.stepsSince(accountId, '2000-01-01')).toBe(before + 500);
    const thisMonth = new Date().toISOString().slice(0, 8);
    const used = await store.usage.stepsSince(accountId, `${thisMonth}01`);
    await store.quotas.setMonthlySteps(accountId, used + 1);
    const res = await h.relay.api('POST', '/v1/web/retrieve', {
      body: { cmd: 'the links', url: `${h.site.url}/index.html` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('npm run quota shows and sets it, and refuses a bad number', async () => {
    const run = (...args: string[]) => runRelayCli('quota', args, h.relay);
    expect(await run('set', '1200')).toMatchObject({ code: 0, out: expect.stringContaining('1200 steps a month') });
    expect(await h.relay.services.store.quotas.monthlySteps(accountId)).toBe(1200);
    expect((await run('show')).out).toMatch(/quota 1200 steps a month/);
    const bad = await run('set', 'lots');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('whole number');
    expect(await h.relay.services.store.quotas.monthlySteps(accountId)).toBe(1200);
    expect(await run('set', 'unlimited')).toMatchObject({ code: 0 });
    expect(await h.relay.services.store.quotas.monthlySteps(accountId)).toBeNull();
  });
});
