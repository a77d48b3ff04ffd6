// A page that answers 404 or 500 still "opens" in a browser; the client and the agent hear the status.
import { describe, expect, it } from 'vitest';
import { decision, indexIn, promptOf, readStream, streamStep, useAgentRelay } from './agent-support';

const h = useAgentRelay();

describe('HTTP status of the pages a session opens', () => {
  it("says the status in create's message when the page is an error page, and nothing when it is not", async () => {
    const missing = await h.relay.api('POST', '/v1/web/session', { body: { url: `${h.site.url}/no-such-page.html` } });
    expect(missing.status).toBe(200);
    expect(missing.body.message).toMatch(/The server answered HTTP 404 Not Found\.$/);
    const broken = await h.relay.api('POST', '/v1/web/session', { body: { url: `${h.site.url}/status?code=500` } });
    expect(broken.body.message).toMatch(/The server answered HTTP 500 Internal Server Error\.$/);
    const fine = await h.relay.api('POST', '/v1/web/session', { body: { url: `${h.site.url}/index.html` } });
    expect(fine.body.message).not.toMatch(/HTTP/);
  });

  it('reports it in step results and events after a click or an open lands on an error page, and tells the model', async () => {
    const id = await h.createSession('/errors.html');
    h.model.script(
      (request) => decision([{ action: 'click', index: indexIn(request, /<a[^>]*>Missing page/) }]),
      decision([{ action: 'navigate', url: `${h.site.url}/status?code=503` }]),
      decision([{ action: 'go_back' }]),
      decision([{ action: 'done', message: 'seen' }]),
    );
    const clicked = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: 'visit the links', stream: false },
    });
    expect(clicked.body.message).toMatch(
      /navigated to http:\/\/127\.0\.0\.1:\d+\/no-such-page\.html\. The server answered HTTP 404 Not Found\./,
    );

    const opened = await h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: '', stream: false } });
    expect(promptOf(h.model.requests[1])).toContain('HTTP status: HTTP 404 Not Found');
    expect(opened.body.message).toMatch(
      /Opened .*status\?code=503\. The server answered HTTP 503 Service Unavailable\./,
    );

    // Back on the 404 page: the status comes with the history step too.
    const back = await h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: '', stream: false } });
    expect(back.body.message).toMatch(/Went back to .*no-such-page\.html\. The server answered HTTP 404 Not Found\./);

    const events = (await readStream(await streamStep(h, id, { cmd: '' })))
      .filter((d) => d !== '[DONE]')
      .map((d) => JSON.parse(d) as { data: { delta: { content: string } } });
    expect(events.map((e) => e.data.delta.content)).toContainEqual(
      expect.stringMatching(/^Step \d+: reading .*no-such-page\.html\. The server answered HTTP 404 Not Found\.$/),
    );
  });
});
