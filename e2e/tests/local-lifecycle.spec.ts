import { expect, test } from '../fixtures';
import { connectExtension, connectionStatus, createLocalSession, setApiEnabled, tabAt } from './local-helpers';

type StepBody = { status: string; message: string; url: string; statusCode?: number };

/** The parsed `data:` chunks of a Server-Sent Events body, without the closing [DONE]. */
function sseChunks(text: string): { type: string; data: { delta?: { content: string; status: string } } }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)));
}

test.describe('a local session when the extension goes away', () => {
  test('API Enabled turned off mid-session: the next step fails saying so, as JSON and as a stream', async ({
    relay,
    serviceWorker,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/form.html`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.session_id;

    await setApiEnabled(serviceWorker, false);
    await expect.poll(() => connectionStatus(serviceWorker)).toBe('api_off');

    const json = await relay.api<StepBody>('POST', `/v1/web/session/${id}`, { cmd: 'scroll down', stream: false });
    expect(json.status, JSON.stringify(json.body)).toBe(400);
    expect(json.body.message).toMatch(/API Enabled was turned off/);
    expect(json.body.message).toMatch(/Turn it on in the extension popup/);

    const res = await fetch(`${relay.url}/v1/web/session/${id}`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: relay.key, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'scroll down', stream: true }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    const final = sseChunks(text).find((c) => c.type === 'final_event');
    expect(final, text).toBeDefined();
    expect(final?.data.delta?.status).toBe('DONE');
    expect(final?.data.delta?.content).toMatch(/^Error: .*API Enabled was turned off/);
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
  });

  test('the socket drops and the extension reconnects within the grace period: the same session continues', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    const deviceId = await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/long.html`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.session_id;
    await tabAt(context, `${site.url}/long.html`);
    const gateway = relay.relay.services.gateway;
    const presence = () => gateway.presence.forAccount(relay.accountId)[0];

    const droppedAt = Date.now();
    expect(gateway.dropConnection(deviceId)).toBe(true);
    // Reconnected: a newer connected presence than the drop (the extension retries by itself, with backoff).
    await expect
      .poll(
        () => {
          const now = presence();
          return now?.deviceId === deviceId && now.connected && now.since >= droppedAt;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(await connectionStatus(serviceWorker)).toBe('connected');

    const step = await relay.api<StepBody>('POST', `/v1/web/session/${id}`, { cmd: 'scroll down', stream: false });
    expect(step.status, JSON.stringify(step.body)).toBe(200);
    expect(step.body.url).toBe(`${site.url}/long.html`);
    const shot = await relay.api<{ screenshot: string }>('GET', `/v1/web/screenshot/${id}`);
    expect(shot.status, JSON.stringify(shot.body)).toBe(200);
  });
});
