// Chromium killed in the middle of a step: that step fails clearly, and the next create works on a new
// Chromium the relay launches by itself.
import { StreamChunk } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { decision, indexIn, readStream, streamStep, useAgentRelay } from './agent-support';

const h = useAgentRelay();

/** Kills the relay's Chromium with SIGKILL (as the OOM killer would) and returns its pid. */
async function killChromium(): Promise<number> {
  const pid = await h.relay.services.browsers.pid();
  if (!pid) throw new Error('no local Chromium is running');
  process.kill(pid, 'SIGKILL');
  return pid;
}

/** A create on a fixture page works, on a Chromium other than `killed`. */
async function expectFreshCreate(killed: number): Promise<void> {
  const next = await h.relay.api('POST', '/v1/web/session', { body: { url: `${h.site.url}/form.html` } });
  expect(next.status, JSON.stringify(next.body)).toBe(200);
  expect(next.body.url).toBe(`${h.site.url}/form.html`);
  const pid = await h.relay.services.browsers.pid();
  expect(pid).toBeGreaterThan(0);
  expect(pid).not.toBe(killed);
}

describe('Chromium killed mid-step', () => {
  it('while the planner decides: the step answers 404 saying the browser stopped; the next create works', async () => {
    const id = await h.createSession('/events.html');
    const starts = h.relay.services.browsers.starts;
    let killed = 0;
    // The model "thinks" while Chromium dies; the step then acts on a browser that is gone.
    h.model.script(async (request) => {
      const index = indexIn(request, /<button[^>]*>Check input/);
      killed = await killChromium();
      return decision([{ action: 'click', index }]);
    });
    const step = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: 'click Check input', stream: false },
    });
    expect(step.status, JSON.stringify(step.body)).toBe(404);
    expect(step.body.message).toBe(
      `Session ${id} ended because its browser stopped unexpectedly. Create a new session (POST /v1/web/session) and use its session_id.`,
    );
    expect((await h.relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);
    await expectFreshCreate(killed);
    expect(h.relay.services.browsers.starts).toBe(starts + 1);
  });

  it('during an action: the JSON step answers 404 at once (not after the action), whichever report comes first', async () => {
    const id = await h.createSession('/events.html');
    let killed = 0;
    let actionStarted = 0;
    h.model.script(async () => {
      // Killed shortly after the answer: the 20 s wait has begun (or is about to), never finished.
      setTimeout(() => {
        actionStarted = Date.now();
        void killChromium().then((pid) => {
          killed = pid;
        });
      }, 300);
      return decision([{ action: 'wait', ms: 20_000 }]);
    });
    const step = await h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'wait a while', stream: false } });
    expect(step.status, JSON.stringify(step.body)).toBe(404);
    expect(step.body.message).toMatch(/ended because its browser stopped unexpectedly/);
    // Well before the wait would have ended: the step noticed the crash instead of sitting out the action.
    expect(Date.now() - actionStarted).toBeLessThan(15_000);
    await expectFreshCreate(killed);
  });

  it('in a streamed step: the final event is an error saying the browser stopped, then [DONE]', async () => {
    const id = await h.createSession('/events.html');
    let killed = 0;
    h.model.script(async () => {
      setTimeout(() => {
        void killChromium().then((pid) => {
          killed = pid;
        });
      }, 300);
      return decision([{ action: 'wait', ms: 20_000 }]);
    });
    const messages = await readStream(await streamStep(h, id, { cmd: 'wait a while' }));
    expect(messages.at(-1)).toBe('[DONE]');
    const final = messages
      .slice(0, -1)
      .map((m) => StreamChunk.parse(JSON.parse(m)))
      .find((c) => c.type === 'final_event');
    expect(final?.data.delta.status).toBe('DONE');
    expect(final?.data.delta.content).toMatch(/^Error: .*browser stopped unexpectedly/);
    await expectFreshCreate(killed);
  });
});
