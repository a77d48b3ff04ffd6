// Work stops when nobody wants it any more: a client that disconnects, a DELETE of a busy session, a
// browse past its time budget. The scripted model server shows which model requests were made, and
// which were aborted in flight.
import { describe, expect, it, vi } from 'vitest';
import { decision, gate, readStream, streamStep, useAgentRelay } from './agent-support';
import { startTestRelay } from './support';

const h = useAgentRelay();
const WAIT = { timeout: 30_000, interval: 50 };

/** A model reply held until the test opens the gate (or the request is aborted). */
function heldReply(opened: Promise<void>) {
  return async () => {
    await opened;
    return decision([{ action: 'done', message: 'too late' }]);
  };
}

describe('a client that disconnects', () => {
  it('stops a browse after the action running, asks the model nothing more, and frees the session', async () => {
    const id = await h.createSession('/index.html');
    const slow = `${h.site.url}/slow?ms=1500`;
    h.model.script(
      decision([{ action: 'navigate', url: slow }]),
      // What a second step would get: the control that shows the browse would have gone on.
      decision([{ action: 'done', message: 'second step' }]),
    );
    const client = new AbortController();
    const browse = fetch(`${h.relay.url}/v1/web/browse`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: h.relay.key, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'open the slow page, then finish', session_id: id, max_steps: 5 }),
      signal: client.signal,
    });
    // The navigation is under way when the client goes.
    await vi.waitFor(() => expect(h.site.requests).toContain('GET /slow?ms=1500'), WAIT);
    client.abort();
    await expect(browse).rejects.toThrow();

    // The action finished; nothing after it ran, and the session takes the next call.
    await vi.waitFor(() => expect(h.session(id).queue.pending).toBe(0), WAIT);
    const [step] = h.session(id).conversation.history;
    expect(step?.actions).toMatchObject([{ action: { action: 'navigate' }, code: 'navigation' }]);
    expect(h.session(id).driver.url()).toBe(slow);
    expect(h.model.requests).toHaveLength(1);
    const next = await h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: '', stream: false } });
    expect(next.body).toMatchObject({ status: 'DONE', message: 'second step' });
    expect(h.model.requests).toHaveLength(2);
    expect(h.logs.some((l) => l.msg === 'operation cancelled: the client disconnected')).toBe(true);
  });

  it('closes the session a browse created, when its client leaves before hearing the session id', async () => {
    const held = gate();
    h.model.script(heldReply(held.opened));
    const client = new AbortController();
    const browse = fetch(`${h.relay.url}/v1/web/browse`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: h.relay.key, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'look around', url: `${h.site.url}/index.html` }),
      signal: client.signal,
    });
    await vi.waitFor(() => expect(h.model.requests).toHaveLength(1), WAIT);
    expect(h.relay.services.sessions.size).toBe(1);
    client.abort();
    await expect(browse).rejects.toThrow();
    // The model request in flight was aborted, and the session is gone with its browser context.
    await vi.waitFor(() => expect(h.model.requests[0]?.abortedAt).toBeDefined(), WAIT);
    await vi.waitFor(() => expect(h.relay.services.sessions.size).toBe(0), WAIT);
    held.open();
    expect(h.model.requests).toHaveLength(1);
  });

  it('aborts the model request of a streamed step and leaves the session usable', async () => {
    const id = await h.createSession('/events.html');
    const held = gate();
    h.model.script(heldReply(held.opened), decision([{ action: 'done', message: 'still here' }]));
    const client = new AbortController();
    const response = await fetch(`${h.relay.url}/v1/web/session/${id}`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: h.relay.key, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'scroll', stream: true }),
      signal: client.signal,
    });
    const chunks: string[] = [];
    const reading = readStream(response, (data) => chunks.push(data)).catch(() => undefined);
    await vi.waitFor(() => expect(h.model.requests).toHaveLength(1), WAIT);
    expect(chunks.length).toBeGreaterThan(0);
    client.abort();
    await reading;
    await vi.waitFor(() => expect(h.model.requests[0]?.abortedAt).toBeDefined(), WAIT);
    await vi.waitFor(() => expect(h.session(id).queue.pending).toBe(0), WAIT);
    held.open();

    const next = await h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: '', stream: false } });
    expect(next.body).toMatchObject({ status: 'DONE', message: 'still here' });
    expect(h.model.requests).toHaveLength(2);
  });

  it('gives up the turn of a step still waiting for a busy session', async () => {
    const id = await h.createSession('/index.html');
    const held = gate();
    h.model.script(heldReply(held.opened));
    const first = h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'wait for it', stream: false } });
    await vi.waitFor(() => expect(h.model.requests).toHaveLength(1), WAIT);
    const client = new AbortController();
    const second = fetch(`${h.relay.url}/v1/web/session/${id}`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: h.relay.key, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'never mind', stream: false }),
      signal: client.signal,
    });
    await vi.waitFor(() => expect(h.session(id).queue.pending).toBe(2), WAIT);
    client.abort();
    await expect(second).rejects.toThrow();
    await vi.waitFor(() => expect(h.session(id).queue.pending).toBe(1), WAIT);
    held.open();
    expect((await first).body).toMatchObject({ status: 'DONE', message: 'too late' });
    // The step that gave up its turn never reached the model.
    expect(h.model.requests).toHaveLength(1);
  });
});

describe('DELETE of a busy session', () => {
  it('answers at once, aborts the model request in flight, and the step hears that the session was closed', async () => {
    const id = await h.createSession('/index.html');
    const held = gate();
    h.model.script(heldReply(held.opened), decision([{ action: 'done', message: 'never asked' }]));
    const step = h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'think hard', stream: false } });
    await vi.waitFor(() => expect(h.model.requests).toHaveLength(1), WAIT);

    // The model has not answered (the gate is shut), yet the close is done.
    const closed = await h.relay.api('DELETE', `/v1/web/session/${id}`);
    expect(closed.body).toEqual({ status: 'closed', session_id: id });
    const stepped = await step;
    expect(stepped.status).toBe(404);
    expect(stepped.body.message).toMatch(/was closed/);
    await vi.waitFor(() => expect(h.model.requests[0]?.abortedAt).toBeDefined(), WAIT);
    held.open();
    expect(h.model.requests).toHaveLength(1);
  });

  it('ends a streamed step with a final event that says the session was closed', async () => {
    const id = await h.createSession('/index.html');
    const held = gate();
    h.model.script(heldReply(held.opened));
    const response = await streamStep(h, id, { cmd: 'think hard' });
    const reading = readStream(response);
    await vi.waitFor(() => expect(h.model.requests).toHaveLength(1), WAIT);
    expect((await h.relay.api('DELETE', `/v1/web/session/${id}`)).status).toBe(200);
    const chunks = (await reading).filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));
    expect(chunks.at(-1)).toMatchObject({
      type: 'final_event',
      data: { delta: { status: 'DONE', content: expect.stringMatching(/^Error: Session .* was closed/) } },
    });
    held.open();
    expect(h.model.requests).toHaveLength(1);
  });
});

describe('the browse time budget', () => {
  it('stops a browse past TANDEM_BROWSE_TIMEOUT_SECONDS with CONTINUE and says so, aborting the model request', async () => {
    const relay = await startTestRelay({
      OPENAI_BASE_URL: h.model.url,
      OPENAI_API_KEY: 'sk-test',
      TANDEM_MODEL_FAST: 'fast-model',
      TANDEM_MODEL_OUTPUT: 'prompt',
      TANDEM_MODEL_MAX_RETRIES: 0,
      TANDEM_BROWSE_TIMEOUT_SECONDS: 3,
    });
    try {
      const held = gate();
      h.model.script(heldReply(held.opened));
      const res = await relay.api('POST', '/v1/web/browse', {
        body: { cmd: 'think forever', url: `${h.site.url}/index.html`, max_steps: 10 },
      });
      held.open();
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ status: 'CONTINUE', metadata: { step_count: 0 } });
      expect(res.body.message).toMatch(
        /time limit of 3 s \(TANDEM_BROWSE_TIMEOUT_SECONDS\).*call again with this session_id/,
      );
      await vi.waitFor(() => expect(h.model.requests[0]?.abortedAt).toBeDefined(), WAIT);
      expect(h.model.requests).toHaveLength(1);
      // The session is kept for the next call.
      expect(relay.services.sessions.list((await relay.services.store.apiKeys.resolve(relay.key))!.accountId)).toEqual([
        res.body.session_id,
      ]);
    } finally {
      await relay.close();
    }
  });
});
