import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureSite, type ModelServer, startFixtureSite, startModelServer } from '@tandem/e2e/fixtures';
import type { ConsoleSessionsResponse, SessionStepsResponse } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decision, indexIn, readStream } from './agent-support';
import { startTestRelay, type TestRelay } from './support';

const PASSWORD = 'Hist0ry-pa55word-Qx7';

/** Kept across the restart (a relay deletes only a data dir it made itself). */
const dataDir = mkdtempSync(join(tmpdir(), 'tandem-history-'));
let site: FixtureSite;
let model: ModelServer;
const relays: TestRelay[] = [];

beforeAll(async () => {
  [site, model] = await Promise.all([startFixtureSite(), startModelServer({ models: ['fast-model'] })]);
});
afterAll(async () => {
  for (const relay of relays) await relay.close().catch(() => undefined);
  await Promise.all([site?.close(), model?.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A relay on the file's data dir whose planner is the scripted model; `databaseUrl` reopens an earlier one's. */
async function relayOn(store: { databaseUrl?: string | undefined } = {}): Promise<TestRelay> {
  const relay = await startTestRelay(
    {
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'sk-test',
      TANDEM_MODEL_FAST: 'fast-model',
      TANDEM_MODEL_STANDARD: 'fast-model',
      TANDEM_MODEL_OUTPUT: 'prompt',
      TANDEM_MODEL_MAX_RETRIES: 0,
      ...(store.databaseUrl ? { TANDEM_DATABASE_URL: store.databaseUrl } : {}),
    },
    { dataDir },
  );
  relays.push(relay);
  return relay;
}

describe('the step timeline', () => {
  it('records each step as it ends and keeps it after the session closes and the relay restarts', async () => {
    const first = await relayOn();
    const created = await first.api('POST', '/v1/web/session', { body: { url: `${site.url}/login.html` } });
    const id = created.body.session_id as string;
    const steps = () => first.api<SessionStepsResponse>('GET', `/v1/console/sessions/${id}/steps`);
    // A live session with no step yet: an empty timeline.
    expect((await steps()).body).toEqual({ session_id: id, steps: [] });

    model.script(
      (request) =>
        decision(
          [
            { action: 'type', index: indexIn(request, /<input type=email/), text: 'ada@example.com' },
            { action: 'type', index: indexIn(request, /<input type=password/), text: PASSWORD },
            { action: 'click', index: indexIn(request, /<button>Sign in/) },
          ],
          'Sign in with the given account',
        ),
      decision([{ action: 'done', message: 'Signed in.' }]),
    );
    const cmd = `Sign in as ada@example.com with password ${PASSWORD}`;
    expect((await first.api('POST', `/v1/web/session/${id}`, { body: { cmd, stream: false } })).status).toBe(200);
    expect((await first.api('POST', `/v1/web/session/${id}`, { body: { cmd: '', stream: false } })).status).toBe(200);

    const recorded = await steps();
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    const [one, two] = recorded.body.steps;
    expect(recorded.body.steps).toHaveLength(2);
    expect(one).toMatchObject({ step: 1, goal: 'Sign in with the given account', status: 'CONTINUE' });
    expect(one?.actions.map((a) => [a.action, a.code])).toEqual([
      ['type', 'ok'],
      ['type', 'ok'],
      ['click', 'ok'],
    ]);
    expect(one?.actions[2]?.index).toEqual(expect.any(Number));
    expect(one?.url).toBe(`${site.url}/login.html`);
    expect(one?.prompt_tokens).toBeGreaterThan(0);
    expect(Date.parse(one?.at ?? '')).toBeLessThanOrEqual(Date.parse(two?.at ?? ''));
    expect(one?.duration_ms).toBeGreaterThanOrEqual(0);
    expect(two).toMatchObject({ step: 2, status: 'DONE', message: 'Signed in.', actions: [{ action: 'done' }] });
    // What was typed into the password field is not kept: the action has no text, its message masks it.
    expect(JSON.stringify(one?.actions)).not.toContain(PASSWORD);
    expect(one?.actions[0]?.message).toContain('ada@example.com');
    // Each step keeps a screenshot of the page it left, served as a JPEG without the API key.
    for (const step of [one, two]) {
      expect(step?.screenshot).toMatch(new RegExp(`^${first.url}/v1/web/screenshots/\\w{22}\\.jpg$`));
      const image = await fetch(step?.screenshot ?? '');
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/jpeg');
      expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }

    // Another account sees nothing of it.
    const otherKey = await first.newAccount('other@example.com');
    const foreign = await first.api('GET', `/v1/console/sessions/${id}/steps`, { key: otherKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toMatch(/No session .* is recorded for this account/);

    const listed = async (relay: TestRelay) =>
      (await relay.api<ConsoleSessionsResponse>('GET', '/v1/console/sessions')).body.sessions.find(
        (s) => s.session_id === id,
      );
    expect(await listed(first)).toMatchObject({
      state: 'idle',
      local: false,
      url: `${site.url}/login.html`,
      steps: 2,
      status: 'DONE',
      screenshot: two?.screenshot,
      idle_seconds: expect.any(Number),
    });
    expect((await first.api<ConsoleSessionsResponse>('GET', '/v1/console/sessions', { key: otherKey })).body).toEqual({
      sessions: [],
    });

    await first.api('DELETE', `/v1/web/session/${id}`);
    expect((await steps()).body.steps).toHaveLength(2);
    expect(await listed(first)).toMatchObject({ state: 'ended', end_reason: 'closed', steps: 2 });
    await first.close();

    const second = await relayOn({ databaseUrl: first.databaseUrl });
    const after = await second.api<SessionStepsResponse>('GET', `/v1/console/sessions/${id}/steps`);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.steps.map((s) => s.status)).toEqual(['CONTINUE', 'DONE']);
    expect(await listed(second)).toEqual({
      session_id: id,
      state: 'ended',
      local: false,
      url: `${site.url}/login.html`,
      created_at: expect.any(String),
      last_used_at: expect.any(String),
      ended_at: expect.any(String),
      end_reason: 'closed',
      status: 'DONE',
      steps: 2,
      last_step_at: after.body.steps[1]?.at,
      // Kept as a path, answered on the relay's URL of now (this one listens on another port).
      screenshot: two?.screenshot?.replace(first.url, second.url),
    });
    expect(after.body.steps[1]?.screenshot).toBe(two?.screenshot?.replace(first.url, second.url));
    expect((await fetch(after.body.steps[1]?.screenshot ?? '')).status).toBe(200);

    // Older than TANDEM_HISTORY_DAYS: pruned (the relay sweeps hourly and at start).
    expect(await second.services.store.history.prune(Date.now() + 1)).toBeGreaterThanOrEqual(2);
    expect(await second.services.store.sessionRecords.prune(Date.now() + 1)).toBeGreaterThanOrEqual(1);
    expect((await second.api('GET', `/v1/console/sessions/${id}/steps`)).status).toBe(404);
    expect((await second.api('GET', '/v1/console/sessions/ses_n0_nosuch/steps')).status).toBe(404);
  });

  it('streams a live timeline: the steps so far, each new step as it finishes, then the end', async () => {
    const relay = await relayOn();
    const created = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/login.html` } });
    const id = created.body.session_id as string;
    model.script(decision([{ action: 'scroll', direction: 'down' }], 'Look further down'));
    expect(
      (await relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'Look around', stream: false } })).status,
    ).toBe(200);

    const live = await fetch(`${relay.url}/v1/console/sessions/${id}/steps/live`, {
      headers: { X_SERVICE_API_KEY: relay.key },
    });
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const seen: string[] = [];
    let heard: () => void = () => undefined;
    const first = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const done = readStream(live, (data) => {
      seen.push(data);
      heard();
    });
    await first; // the recorded step arrived: the watcher is subscribed
    model.script(decision([{ action: 'done', message: 'Nothing more.' }]));
    expect((await relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: '', stream: false } })).status).toBe(200);
    await expect.poll(() => seen.length).toBe(2);
    await relay.api('DELETE', `/v1/web/session/${id}`);
    const messages = await done;
    const chunks = messages
      .slice(0, -1)
      .map((m) => JSON.parse(m) as { type: string; step?: { step: number; goal: string }; reason?: string });
    expect(chunks.map((c) => [c.type, c.step?.step ?? c.reason])).toEqual([
      ['step', 1],
      ['step', 2],
      ['end', 'closed'],
    ]);
    expect(chunks[0]?.step?.goal).toBe('Look further down');
    expect(messages.at(-1)).toBe('[DONE]');

    // Ended: the recorded steps and the end at once; an unknown session is a plain 404.
    const after = await readStream(
      await fetch(`${relay.url}/v1/console/sessions/${id}/steps/live`, { headers: { X_SERVICE_API_KEY: relay.key } }),
    );
    expect(after.map((m) => (m === '[DONE]' ? m : (JSON.parse(m) as { type: string }).type))).toEqual([
      'step',
      'step',
      'end',
      '[DONE]',
    ]);
    const unknown = await fetch(`${relay.url}/v1/console/sessions/ses_n0_nosuch/steps/live`, {
      headers: { X_SERVICE_API_KEY: relay.key },
    });
    expect(unknown.status).toBe(404);
  });
});
