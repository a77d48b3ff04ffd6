import { expect, type TestRelay, test } from '../fixtures';
import { connectExtension, createLocalSession, sessionOf, tabAt } from './local-helpers';

type StepBody = { status: string; message: string; url: string; session_id: string };

test.describe('the agent in a local session', () => {
  test('steps with the built-in planner until DONE, acting in the extension tab', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/form.html`);
    expect(created.status).toBe(200);
    const id = created.body.session_id;
    let last: StepBody | undefined;
    let cmd = 'Type Ada Lovelace into the Name field, enter ada@example.com in Email, then click Send';
    for (let i = 0; i < 8 && last?.status !== 'DONE'; i++) {
      const res = await relay.api<StepBody>('POST', `/v1/web/session/${id}`, { cmd, stream: false });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      last = res.body;
      cmd = '';
    }
    expect(last?.status).toBe('DONE');
    expect(last?.url).toContain('/echo?name=Ada+Lovelace&email=ada%40example.com');
    await tabAt(context, last?.url ?? '');
  });

  test('streams a local step as Server-Sent Events', async ({ relay, serviceWorker, site }) => {
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/login.html`);
    expect(created.status).toBe(200);
    const res = await fetch(`${relay.url}/v1/web/session/${created.body.session_id}`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: relay.key, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'log in as ada@example.com with password correct-horse', stream: true }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    expect(text).toContain('final_event');
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
  });
});

/** browse/retrieve with `local: true`. */
function postLocal(relay: TestRelay, path: string, body: Record<string, unknown>) {
  return relay.api<{ message?: string; session_id?: string; url?: string; data?: unknown[] }>('POST', path, {
    ...body,
    local: true,
  });
}

test.describe('browse and retrieve with local: true', () => {
  test('the content model for retrieve comes from the extension tab', async ({ relay, serviceWorker, site }) => {
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/table.html`);
    expect(created.status).toBe(200);
    const session = relay.relay.services.sessions.get(relay.accountId, created.body.session_id);
    const content = await session.driver.content({ full_page: true });
    expect(content.tables.length).toBeGreaterThan(0);
  });

  test('browse with local: true completes a multi-step task with the built-in planner, in the extension tab', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const res = await postLocal(relay, '/v1/web/browse', {
      cmd: 'Type Ada Lovelace into the Name field, enter ada@example.com in Email, then click Send',
      url: `${site.url}/form.html`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'DONE' });
    const url = String(res.body.url);
    expect(url).toContain('/echo?name=Ada+Lovelace');
    // Ran in the user's browser, not the relay's Chromium: the extension browser shows the result page.
    expect(sessionOf(relay, String(res.body.session_id)).driver.kind).toBe('extension');
    await tabAt(context, url);
  });

  test('retrieve with local: true reads the page in the extension tab', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const res = await postLocal(relay, '/v1/web/retrieve', {
      cmd: '',
      url: `${site.url}/table.html`,
      mode: 'ludicrous',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(sessionOf(relay, String(res.body.session_id)).driver.kind).toBe('extension');
    await tabAt(context, `${site.url}/table.html`);
    const rows = (res.body.data ?? []) as Record<string, unknown>[];
    expect(rows.map((r) => r.product)).toEqual([
      'Acme Kettle',
      'Acme Toaster',
      'Bolt Drill',
      'Bolt Saw',
      'Calm Lamp',
      'Calm Rug',
    ]);
    // Price fields are numbers on every page shape (README: value types); other fields are text as shown.
    expect(rows[2]).toMatchObject({ price: 89.99, stock: '4' });
  });

  test('retrieve with local: true scrolls a lazy list to its end in the extension tab', async ({
    relay,
    serviceWorker,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const body = { cmd: '', url: `${site.url}/retrieve/lazy.html`, mode: 'ludicrous', fields: ['title'] };
    const first = await postLocal(relay, '/v1/web/retrieve', body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toHaveLength(10);
    const all = await postLocal(relay, '/v1/web/retrieve', { ...body, scroll_to_bottom: true });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(sessionOf(relay, String(all.body.session_id)).driver.kind).toBe('extension');
    expect((all.body.data as { title: string }[]).map((r) => r.title).at(-1)).toBe('Post number 50');
    expect(all.body.data).toHaveLength(50);
    expect(all.body.message).toMatch(/scroll_to_bottom: reached the bottom \(scrolled for \d+ ms, limit 5 s\)/);
  });
});

test.describe('secrets in a local session', () => {
  test('the relay types <secret:name> values into the extension tab and masks them in what comes back', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    const values = { 'vault-user': 'local-user-Qx42', 'vault-password': 'Local-Pa55-Rt7', pin: '5531-0078' };
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/vault-login.html`);
    expect(created.status).toBe(200);
    const id = created.body.session_id;
    const tab = await tabAt(context, `${site.url}/vault-login.html`);
    const answers: string[] = [];
    const step = async (cmd: string) => {
      const res = await relay.api<StepBody>('POST', `/v1/web/session/${id}`, {
        cmd,
        stream: false,
        optional_params: { secrets: values },
      });
      answers.push(JSON.stringify(res.body));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };

    // The page copies what is typed into its own text: the snapshot shows the placeholder there.
    await step('type <secret:pin> into Account PIN');
    await expect(tab.locator('#pin')).toHaveValue(values.pin);
    const session = sessionOf(relay, id);
    const typed = await session.driver.snapshot();
    expect(typed.text).toContain('pin=<secret:pin>');
    expect(typed.text).not.toContain(values.pin);

    let last = await step(
      'type <secret:vault-user> into Username, type <secret:vault-password> into Password, then click Sign in',
    );
    for (let i = 0; i < 6 && last.status !== 'DONE'; i++) last = await step('');
    expect(site.signins).toEqual([{ user: values['vault-user'], password: values['vault-password'], pin: values.pin }]);
    // The server showed the form back; the agent's view of that page holds only placeholders.
    const shown = await session.driver.snapshot();
    expect(shown.text).toContain('password: <secret:vault-password>');
    for (const value of Object.values(values)) {
      expect(shown.text).not.toContain(value);
      expect(answers.join('\n')).not.toContain(value);
    }
  });
});
