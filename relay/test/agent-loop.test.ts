// The step loop over HTTP with the scripted model: action sequencing, failure control, the plan,
// token totals, the agent profile on continued sessions, and a browser lost mid-step.
import { StreamChunk } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { decision, gate, indexIn, promptOf, readStream, streamStep, useAgentRelay } from './agent-support';

const h = useAgentRelay();

const step = (id: string, body: Record<string, unknown> = {}) =>
  h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: '', stream: false, ...body } });

/** The value the session's page shows in the input with this placeholder, read from a fresh snapshot. */
async function inputValue(id: string, placeholder: string): Promise<string | undefined> {
  const snapshot = await h.session(id).driver.snapshot({ full_page: true });
  return snapshot.elements.find((e) => e.attributes.placeholder === placeholder)?.attributes.value;
}

describe('action sequencing within a step', () => {
  it('ends the sequence after an action that changes the page: the type after the link never runs', async () => {
    const id = await h.createSession('/index.html');
    h.model.script((request) => {
      const link = indexIn(request, /<a>Form/);
      return decision([
        { action: 'click', index: link },
        { action: 'type', index: link, text: 'Ada' },
      ]);
    });
    const res = await step(id, { cmd: 'Open the form and type Ada' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'CONTINUE', url: `${h.site.url}/form.html` });
    expect(res.body.message).toMatch(/not run: type \(the page changed/);
    const record = h.session(id).conversation.history.at(-1);
    expect(record?.actions.map((a) => a.action.action)).toEqual(['click']);
    expect(await inputValue(id, 'Your name')).toBe('');
  });

  it('runs at most 5 actions of a decision', async () => {
    const id = await h.createSession('/form.html');
    h.model.script((request) => {
      const name = indexIn(request, /<input placeholder="Your name"/);
      return decision(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((text) => ({ action: 'type', index: name, text, clear: false })),
      );
    });
    const res = await step(id, { cmd: 'Type the letters' });
    expect(res.body).toMatchObject({ status: 'CONTINUE' });
    expect(await inputValue(id, 'Your name')).toBe('abcde');
    expect(h.session(id).conversation.history.at(-1)?.actions).toHaveLength(5);
  });

  it('runs the page actions of a decision that also says done, and reports the dropped done', async () => {
    const id = await h.createSession('/form.html');
    h.model.script((request) =>
      decision([
        { action: 'type', index: indexIn(request, /<input placeholder="Your name"/), text: 'Ada' },
        { action: 'done', message: 'Typed Ada.' },
      ]),
    );
    const res = await step(id, { cmd: 'Type Ada as the name' });
    // The done was written before the typing ran: the next step, which sees the page, may finish.
    expect(res.body.status).toBe('CONTINUE');
    expect(res.body.message).toMatch(/dropped done mixed with page actions/);
    expect(await inputValue(id, 'Your name')).toBe('Ada');
  });
});

describe('failure control', () => {
  it('counts replies that stay broken after the repair request as failed steps and stops with DONE', async () => {
    // Prompt mode: each step asks once, then once more to repair; all six replies are prose.
    for (let i = 0; i < 6; i++) h.model.script({ kind: 'content', content: 'I would click the button, I think.' });
    const res = await h.relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'Click the button', url: `${h.site.url}/form.html` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'DONE', metadata: { step_count: 3 } });
    expect(res.body.message).toMatch(/Stopped after 3 failed steps in a row/);
    expect(res.body.message).toMatch(/did not produce a valid decision/);
    expect(h.model.requests).toHaveLength(6);
    // The session is the client's to continue, not closed as after a server error.
    expect((await h.relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([res.body.session_id]);
  });
});

describe('what the agent keeps across steps', () => {
  it("keeps the first step's plan in every later prompt, even after a reply with empty memory", async () => {
    const plan = 'Plan: 1. scroll to the end 2. report the last line';
    h.model.script(
      decision([{ action: 'scroll', direction: 'down' }], 'scroll', plan),
      decision([{ action: 'scroll', direction: 'down' }], 'scroll more', ''),
      decision([{ action: 'done', message: 'Reached the end.' }], 'finish', ''),
    );
    const res = await h.relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'Scroll to the end', url: `${h.site.url}/long.html` },
    });
    expect(res.body).toMatchObject({ status: 'DONE', metadata: { step_count: 3 } });
    expect(promptOf(h.model.requests[0])).not.toContain(plan);
    const third = promptOf(h.model.requests[2]);
    expect(third).toContain(`# Your plan for this task (from your first step)\n${plan}`);
    expect(third).not.toContain('# Your memory from the previous step');
  });

  it("adds up the session's token usage over its steps", async () => {
    const id = await h.createSession('/long.html');
    h.model.script(decision([{ action: 'scroll', direction: 'down' }]), decision([{ action: 'done', message: 'ok' }]));
    expect((await step(id, { cmd: 'Scroll once, then finish' })).body.status).toBe('CONTINUE');
    expect((await step(id)).body.status).toBe('DONE');
    const totals = { steps: 2, promptTokens: 2000, completionTokens: 100, cachedTokens: 1600 };
    expect(h.session(id).conversation.usage).toEqual(totals);
    // The totals go to the log once, when the session ends.
    expect((await h.relay.api('DELETE', `/v1/web/session/${id}`)).status).toBe(200);
    expect(h.logs.filter((l) => l.msg === 'session ended' && l.sessionId === id)).toEqual([
      expect.objectContaining({ reason: 'closed', usage: totals }),
    ]);
  });

  it("uses the session's agent profile when a later browse continues it without agent_id", async () => {
    const account = (await h.relay.services.store.apiKeys.resolve(h.relay.key))!.accountId;
    const profile = await h.relay.services.store.agents.create(account, {
      name: 'terse',
      instructions: 'Reply in one short sentence.',
    });
    h.model.script(decision([{ action: 'done', message: 'One.' }]), decision([{ action: 'done', message: 'Two.' }]));
    const first = await h.relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'Say one', url: `${h.site.url}/form.html`, agent_id: profile.id },
    });
    expect(first.body.status).toBe('DONE');
    const second = await h.relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'Say two', session_id: first.body.session_id },
    });
    expect(second.body).toMatchObject({ status: 'DONE', message: 'Two.' });
    expect(promptOf(h.model.requests[1])).toContain('Reply in one short sentence.');
  });
});

describe('a browser lost mid-step', () => {
  /** A reply that closes the session's browser context (as a crash would), then asks for a click. */
  const closeBrowserThenClick = (path: string) => async () => {
    const browser = await h.relay.services.browsers.get();
    const context = browser.contexts().find((c) => c.pages().some((p) => p.url().endsWith(path)));
    if (!context) throw new Error(`no browser context shows ${path}`);
    await context.close();
    return decision([{ action: 'click', index: 1 }]);
  };

  it('fails the step with the error instead of answering CONTINUE', async () => {
    const id = await h.createSession('/form.html');
    h.model.script(closeBrowserThenClick('/form.html'));
    const res = await step(id, { cmd: 'Click the first element' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.message).toMatch(/browser stopped unexpectedly/);
  });

  it('ends a streamed step with an error final_event', async () => {
    const id = await h.createSession('/events.html');
    h.model.script(closeBrowserThenClick('/events.html'));
    const messages = await readStream(await streamStep(h, id, { cmd: 'Click the first element' }));
    const last = StreamChunk.parse(JSON.parse(messages.at(-2) ?? '{}'));
    expect(last.type).toBe('final_event');
    if (last.type !== 'final_event') return;
    expect(last.data.delta.status).toBe('DONE');
    expect(last.data.delta.content).toMatch(/^Error: .*browser stopped unexpectedly/);
  });
});

describe('streaming', () => {
  it('sends the first chunk before navigating and planning, while the model has not answered', async () => {
    const id = await h.createSession('/form.html');
    const hold = gate();
    let answered = false;
    h.model.script(async () => {
      await hold.opened;
      answered = true;
      return decision([{ action: 'done', message: 'Looked.' }]);
    });
    let firstChunk: StreamChunk | undefined;
    let answeredAtFirstChunk: boolean | undefined;
    const response = await streamStep(h, id, { cmd: 'Look at the events page', url: `${h.site.url}/events.html` });
    const messages = await readStream(response, (data) => {
      if (firstChunk) return;
      firstChunk = StreamChunk.parse(JSON.parse(data));
      answeredAtFirstChunk = answered;
      // Only now may the model answer: a relay that holds the first chunk back would never finish.
      hold.open();
    });
    expect(answeredAtFirstChunk).toBe(false);
    // Sent before the navigation to the url of this call.
    expect(firstChunk).toEqual({
      type: 'event',
      data: { delta: { content: 'Step started.', url: `${h.site.url}/form.html` }, session_id: id },
    });
    const final = StreamChunk.parse(JSON.parse(messages.at(-2) ?? '{}'));
    expect(final.data.delta).toMatchObject({ content: 'Looked.', url: `${h.site.url}/events.html`, status: 'DONE' });
  });

  it('still answers a refused url with a plain 400 before any chunk', async () => {
    const id = await h.createSession('/form.html');
    const res = await streamStep(h, id, { cmd: 'Look', url: 'ftp://example.com/' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/Only http and https/);
  });
});

describe('one order of work for a JSON and a streamed step', () => {
  // A port nothing listens on: the URL passes every check, and the page then fails to load.
  const unreachable = 'http://127.0.0.1:9/';

  it('takes the cmd only after its page loaded: a page that fails to load leaves the task as it was', async () => {
    const id = await h.createSession('/form.html');
    h.model.script(decision([{ action: 'scroll', direction: 'down' }]));
    expect((await step(id, { cmd: 'Read the form' })).body.status).toBe('CONTINUE');

    const json = await step(id, { cmd: 'Read something else', url: unreachable });
    expect(json.status, JSON.stringify(json.body)).toBe(400);
    expect(json.body.message).toMatch(/Could not open/);
    expect(h.session(id).conversation.task).toBe('Read the form');

    const messages = await readStream(await streamStep(h, id, { cmd: 'Read something else', url: unreachable }));
    const final = StreamChunk.parse(JSON.parse(messages.at(-2) ?? '{}'));
    expect(final.data.delta).toMatchObject({
      status: 'DONE',
      content: expect.stringMatching(/^Error: Could not open/),
    });
    expect(h.session(id).conversation.task).toBe('Read the form');
    expect(h.model.requests).toHaveLength(1);
  });

  it('refuses an empty cmd with no task before any chunk and before navigating', async () => {
    const id = await h.createSession('/form.html');
    const stream = await streamStep(h, id, { cmd: ' ', url: `${h.site.url}/events.html` });
    expect(stream.status).toBe(400);
    expect(((await stream.json()) as { message: string }).message).toMatch(/no task yet/);
    const json = await step(id, { cmd: '', url: `${h.site.url}/events.html` });
    expect(json.status).toBe(400);
    expect(json.body.message).toMatch(/no task yet/);
    expect(h.session(id).driver.url()).toBe(`${h.site.url}/form.html`);
  });
});
