import { StreamChunk } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { decision, indexIn, promptOf, readStream, useAgentRelay } from './agent-support';

const h = useAgentRelay();

describe('step (stream: false)', () => {
  it('runs one step per call: CONTINUE while acting, DONE with the answer', async () => {
    const id = await h.createSession('/login.html');
    h.model.script(
      (request) =>
        decision([
          { action: 'type', index: indexIn(request, /<input type=email/), text: 'ada@example.com' },
          { action: 'type', index: indexIn(request, /<input type=password/), text: 'correct-horse' },
          { action: 'click', index: indexIn(request, /<button>Sign in/) },
        ]),
      decision([{ action: 'done', message: 'Signed in as ada@example.com.' }]),
    );
    const first = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: 'Sign in as ada@example.com with password correct-horse', stream: false },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      status: 'CONTINUE',
      session_id: id,
      url: `${h.site.url}/login.html`,
      screenshot: '',
    });
    expect(first.body.message).toMatch(/Clicked/);

    const second = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: '', stream: false, temperature: 0.3 },
    });
    expect(second.body).toMatchObject({
      status: 'DONE',
      message: 'Signed in as ada@example.com.',
      metadata: { temperature: 0.3 },
    });
    expect(promptOf(h.model.requests[1])).toContain('Welcome back');
    expect(h.model.requests[1]?.body?.temperature).toBe(0.3);
  });

  it('after ASK_USER takes the next cmd as the answer, and the model sees it', async () => {
    const id = await h.createSession('/login.html');
    h.model.script(
      decision([{ action: 'ask_user', question: 'Which email address should I use?' }]),
      decision([{ action: 'done', message: 'Noted.' }]),
    );
    const asked = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: 'Sign in for me', stream: false },
    });
    expect(asked.body).toMatchObject({ status: 'ASK_USER', message: 'Which email address should I use?' });
    const empty = await h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: '', stream: false } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('Which email address should I use?');
    const answered = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: 'grace@example.com', stream: false },
    });
    expect(answered.body.status).toBe('DONE');
    const prompt = promptOf(h.model.requests[1]);
    expect(prompt).toContain('Sign in for me');
    expect(prompt).toContain('grace@example.com');
  });

  it('uses the standard model in standard mode and records token usage for the account', async () => {
    const id = await h.createSession('/form.html');
    h.model.script(decision([{ action: 'done', message: 'ok' }]));
    const res = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: 'look', stream: false, mode: 'standard' },
    });
    expect(res.body.status).toBe('DONE');
    expect(h.model.requests[0]?.body?.model).toBe('standard-model');
    const account = (await h.relay.services.store.apiKeys.resolve(h.relay.key))!.accountId;
    const usage = await h.relay.services.store.usage.day(account, new Date().toISOString().slice(0, 10));
    expect(usage.steps).toBeGreaterThanOrEqual(1);
    expect(usage.promptTokens).toBeGreaterThanOrEqual(1000);
    expect(usage.cachedTokens).toBeGreaterThanOrEqual(800);
  });

  it('puts skills in the prompt only on matching sites, and the agent profile instructions', async () => {
    const account = (await h.relay.services.store.apiKeys.resolve(h.relay.key))!.accountId;
    await h.relay.services.store.skills.add(account, '127.0.0.1', 'Never tick "Keep me signed in".');
    await h.relay.services.store.skills.add(account, 'shop.example', 'Always compare prices first.');
    const profile = await h.relay.services.store.agents.create(account, {
      name: 'careful',
      instructions: 'Answer in French.',
    });
    const id = await h.createSession('/login.html');
    h.model.script(decision([{ action: 'done', message: 'fini' }]));
    const res = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: 'look', stream: false, agent_id: profile.id },
    });
    expect(res.body.status).toBe('DONE');
    const prompt = promptOf(h.model.requests[0]);
    expect(prompt).toContain('Never tick "Keep me signed in".');
    expect(prompt).not.toContain('Always compare prices first.');
    expect(prompt).toContain('Answer in French.');
    const unknown = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: 'x', stream: false, agent_id: 'agt_nope' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/Unknown agent_id/);
  });

  it("applies an agent profile's skills, temperature and step limit", async () => {
    const account = (await h.relay.services.store.apiKeys.resolve(h.relay.key))!.accountId;
    const chosen = await h.relay.services.store.skills.add(account, '127.0.0.1', 'Use the chosen rule.');
    await h.relay.services.store.skills.add(account, '127.0.0.1', 'A rule this agent does not take.');
    const profile = await h.relay.services.store.agents.create(account, {
      name: 'tuned',
      instructions: '',
      temperature: 0.15,
      maxSteps: 2,
      skillIds: [chosen.id],
    });
    const scroll = decision([{ action: 'scroll', direction: 'down' }]);
    h.model.script(scroll, scroll, scroll);
    const res = await h.relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'keep scrolling', url: `${h.site.url}/long.html`, agent_id: profile.id, max_steps: 10 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.metadata).toMatchObject({ step_count: 2 });
    expect(h.model.requests).toHaveLength(2);
    const prompt = promptOf(h.model.requests[0]);
    expect(prompt).toContain('Use the chosen rule.');
    expect(prompt).not.toContain('A rule this agent does not take.');
    expect(h.model.requests[0]?.body?.temperature).toBe(0.15);
    // The call's own temperature wins over the profile's.
    h.model.script(decision([{ action: 'done', message: 'ok' }]));
    await h.relay.api('POST', `/v1/web/session/${res.body.session_id}`, {
      body: { cmd: 'done?', stream: false, temperature: 0.9 },
    });
    expect(h.model.requests.at(-1)?.body?.temperature).toBe(0.9);
  });
});

describe('dialogs in a step', () => {
  it('dismisses a confirm the task did not ask for and tells the model; accepts it when the task says to confirm', async () => {
    const id = await h.createSession('/events.html');
    const pressConfirm = (request: Parameters<typeof indexIn>[0]) =>
      decision([{ action: 'click', index: indexIn(request, /<button[^>]*>Ask to confirm/) }]);
    h.model.script(pressConfirm, pressConfirm);
    const dismissed = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: 'Press the button that asks about deleting', stream: false },
    });
    expect(dismissed.status, JSON.stringify(dismissed.body)).toBe(200);
    expect(dismissed.body.message).toContain('confirm dialog: "Delete it?"; it was dismissed (Cancel)');

    const accepted = await h.relay.api('POST', `/v1/web/session/${id}`, {
      body: { cmd: 'Press the button that asks about deleting, and confirm the deletion', stream: false },
    });
    expect(accepted.body.message).toContain('confirm dialog: "Delete it?"; it was accepted (OK)');
    // The model's next prompt shows the page's answer and the dialog in the step history.
    h.model.script(decision([{ action: 'done', message: 'Deleted.' }]));
    await h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'What happened?', stream: false } });
    const prompt = promptOf(h.model.requests.at(-1));
    expect(prompt).toContain('confirmed');
    expect(prompt).toContain('it was dismissed (Cancel)');
  });
});

describe('browse', () => {
  it('opens a new session and steps until DONE, with metadata', async () => {
    h.model.script(
      (request) => decision([{ action: 'click', index: indexIn(request, /<a>Form/) }], 'open the form'),
      (request) =>
        decision([{ action: 'type', index: indexIn(request, /<input placeholder="Your name"/), text: 'Ada' }]),
      decision([{ action: 'done', message: 'Typed the name.' }]),
    );
    const res = await h.relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'Open the form and type Ada as the name', temperature: 0.2, include_screenshot: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'DONE', message: 'Typed the name.', url: `${h.site.url}/form.html` });
    expect(res.body.metadata).toEqual({ step_count: 3, processing_time: expect.any(Number), temperature: 0.2 });
    expect(res.body.screenshot).toMatch(/\/v1\/web\/screenshots\/\w+\.png$/);
    expect(h.model.requests).toHaveLength(3);
    expect(promptOf(h.model.requests[2])).toContain('open the form');
  });

  it('honours max_steps and answers CONTINUE when the budget runs out; a later browse continues the session', async () => {
    h.model.script(
      decision([{ action: 'scroll', direction: 'down' }]),
      decision([{ action: 'scroll', direction: 'down' }]),
      decision([{ action: 'done', message: 'Reached the end.' }]),
    );
    const first = await h.relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'Scroll to the end', url: `${h.site.url}/long.html`, max_steps: 2 },
    });
    expect(first.body).toMatchObject({ status: 'CONTINUE', metadata: { step_count: 2 } });
    expect(first.body.message).toMatch(/max_steps/);
    // Only the last allowed step tells the model it must finish now.
    expect(promptOf(h.model.requests[0])).not.toMatch(/last step/i);
    const last = promptOf(h.model.requests[1]);
    expect(last).toContain('Step 2 of 2. This is the last step: you must finish now. Answer with done alone');
    expect(last).toMatch(/This is the last step of this call: answer with done alone/);
    const next = await h.relay.api('POST', '/v1/web/browse', { body: { cmd: '', session_id: first.body.session_id } });
    expect(next.body).toMatchObject({ status: 'DONE', message: 'Reached the end.', session_id: first.body.session_id });
  });

  it('stops with a final answer after repeated failed steps, and nudges the model when it repeats itself', async () => {
    for (let i = 0; i < 3; i++) h.model.script(decision([{ action: 'click', index: 999 }]));
    const res = await h.relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'Click the missing button', url: `${h.site.url}/form.html` },
    });
    expect(res.body).toMatchObject({ status: 'DONE', metadata: { step_count: 3 } });
    expect(res.body.message).toMatch(/Stopped after 3 failed steps in a row/);
    expect(res.body.message).toMatch(/No element has index 999/);
    expect(promptOf(h.model.requests[2])).toMatch(/repeated the same actions/);
  });

  it('refuses use_proxy without proxies and unknown agents before creating anything', async () => {
    const proxy = await h.relay.api('POST', '/v1/web/browse', { body: { cmd: 'x', use_proxy: true } });
    expect(proxy.status).toBe(400);
    const agent = await h.relay.api('POST', '/v1/web/browse', { body: { cmd: 'x', agent_id: 'agt_unknown' } });
    expect(agent.status).toBe(400);
    expect((await h.relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);
    expect(h.model.requests).toHaveLength(0);
  });

  it('answers 500 with what to check when the model endpoint refuses the model', async () => {
    h.model.script({ kind: 'error', status: 404, message: 'The model `fast-model` does not exist' });
    const res = await h.relay.api('POST', '/v1/web/browse', { body: { cmd: 'x', url: `${h.site.url}/form.html` } });
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(/model/);
  });
});

describe('step (stream: true)', () => {
  it('streams event chunks, one final_event with status and screenshot, then [DONE]', async () => {
    const id = await h.createSession('/events.html');
    h.model.script((request) =>
      decision([{ action: 'click', index: indexIn(request, /<button>Show alert/) }], 'press the alert button'),
    );
    const response = await fetch(`${h.relay.url}/v1/web/session/${id}`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: h.relay.key, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'Press the alert button', stream: true, include_screenshot: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const messages = await readStream(response);
    expect(messages.at(-1)).toBe('[DONE]');
    const chunks = messages.slice(0, -1).map((m) => StreamChunk.parse(JSON.parse(m)));
    expect(chunks[0]).toEqual({
      type: 'event',
      data: { delta: { content: 'Step started.', url: `${h.site.url}/events.html` }, session_id: id },
    });
    expect(chunks.filter((c) => c.type === 'final_event')).toHaveLength(1);
    expect(chunks.at(-1)?.type).toBe('final_event');
    const contents = chunks.map((c) => c.data.delta.content);
    expect(contents).toContain('Goal: press the alert button');
    expect(contents.some((c) => c.includes('alert dialog: "Saved!"'))).toBe(true);
    const last = chunks.at(-1);
    if (last?.type !== 'final_event') throw new Error('the stream did not end with final_event');
    const final = last.data;
    expect(final.delta).toMatchObject({ status: 'CONTINUE', url: `${h.site.url}/events.html` });
    expect(final.screenshot).toMatch(/\.png$/);
    expect(final.session_id).toBe(id);
  });
});
