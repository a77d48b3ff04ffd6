import { expect, test } from '../fixtures';
import { CONSOLE_TEST_MS, firstSignIn, makeMember, openPage, screenshot } from './console-helpers';

test.describe.configure({ timeout: CONSOLE_TEST_MS });

test('a change sent with the console cookie but without the CSRF token is refused (403)', async ({ page, relay }) => {
  await firstSignIn(page, relay);
  const attempt = (headers: Record<string, string>) =>
    page.evaluate(async (extra) => {
      const res = await fetch('/v1/console/skills', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...extra },
        body: JSON.stringify({ host_pattern: 'csrf.example', rule: 'Made without the token.' }),
      });
      return { status: res.status, body: await res.json() };
    }, headers);
  const refused = await attempt({});
  expect(refused.status).toBe(403);
  expect(refused.body.message).toContain('X-CSRF-Token');
  expect((await attempt({ 'x-csrf-token': 'not the token' })).status).toBe(403);
  // The cookie was there all along: reading works without the token, and nothing was made.
  const listed = await page.evaluate(async () => (await fetch('/v1/console/skills')).json());
  expect(listed.skills).toEqual([]);
  // A form posted from the page (no script, so no header) is refused the same way.
  const formStatus = await page.evaluate(async () => {
    const res = await fetch('/v1/console/api-keys', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=form',
    });
    return res.status;
  });
  expect(formStatus).toBe(403);
});

test('text from a rule is shown as text: no script runs, no element is made of it', async ({ page, relay }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await firstSignIn(page, relay);
  await openPage(page, 'Skills');
  const hostile = '<script>alert(1)</script> and <img src=x onerror="window.__xss = 1; alert(2)">';
  await page.getByLabel('Sites').fill('hostile.example');
  await page.getByLabel('Rule', { exact: true }).fill(hostile);
  await page.getByRole('button', { name: 'Add rule' }).click();
  await expect(page.getByText(hostile, { exact: true })).toBeVisible();
  // Also through the API, and after a reload.
  await relay.api('POST', '/v1/console/agents', { name: '<img src=x onerror=alert(3)>', instructions: hostile });
  await page.reload();
  await expect(page.getByText(hostile, { exact: true })).toBeVisible();
  await openPage(page, 'Agents');
  await expect(page.getByRole('heading', { name: '<img src=x onerror=alert(3)>' })).toBeVisible();
  await expect(page.getByText(hostile, { exact: true })).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.locator('main script').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test("another account's keys, sessions, skills, agents, secrets and devices are not in your pages nor reachable by id", async ({
  page,
  relay,
  site,
}) => {
  const member = await makeMember(relay, 'other@example.com', 'other password 2026');
  const as = (method: string, path: string, body?: unknown) =>
    fetch(`${relay.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${member.key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));
  const key = await as('POST', '/v1/console/api-keys', { name: 'their key' });
  const skill = await as('POST', '/v1/console/skills', { host_pattern: 'their.example', rule: 'Their rule.' });
  const agent = await as('POST', '/v1/console/agents', { name: 'their agent' });
  const secret = await as('PUT', '/v1/console/secrets/their_secret', { value: 'their value 123' });
  const device = await as('POST', '/v1/extension/token', { name: 'their browser' });
  const session = await as('POST', '/v1/web/session', { url: `${site.url}/form.html` });
  for (const made of [key, skill, agent, secret, device, session])
    expect(made.status, JSON.stringify(made.body)).toBeLessThan(300);

  await firstSignIn(page, relay);
  const pages: [string, string][] = [
    ['Sessions', session.body.session_id!.slice(0, 11)],
    ['API keys', 'their key'],
    ['Skills', 'their.example'],
    ['Agents', 'their agent'],
    ['Secrets', 'their_secret'],
    ['Devices', 'their browser'],
  ];
  for (const [name, theirs] of pages) {
    await openPage(page, name);
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
    await expect(page.getByRole('main')).not.toContainText(theirs);
  }
  // By id, with this console sign-in: unknown.
  const byId = await page.evaluate(
    async (ids) => {
      const me = await (await fetch('/v1/console/me')).json();
      const headers = { 'x-csrf-token': me.csrf_token, 'content-type': 'application/json' };
      const call = async (method: string, path: string, body?: unknown) =>
        (await fetch(path, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) })).status;
      return [
        await call('DELETE', `/v1/console/api-keys/${ids.key}`),
        await call('PATCH', `/v1/console/skills/${ids.skill}`, { enabled: false }),
        await call('GET', `/v1/console/agents/${ids.agent}`),
        await call('DELETE', `/v1/console/secrets/their_secret`),
        await call('DELETE', `/v1/console/devices/${ids.device}`),
        await call('GET', `/v1/console/sessions/${ids.session}/steps`),
        await call('DELETE', `/v1/console/sessions/${ids.session}`),
      ];
    },
    {
      key: key.body.id,
      skill: skill.body.id,
      agent: agent.body.id,
      device: device.body.device_id,
      session: session.body.session_id,
    },
  );
  expect(byId).toEqual([404, 404, 404, 404, 404, 404, 404]);
  // The session page of theirs says so in words.
  await page.goto(`${relay.url}/console/sessions/${session.body.session_id}`);
  await expect(page.getByRole('alert')).toBeVisible();
  await screenshot(page, 'session-unknown');
  // And everything of theirs is still there for them.
  expect((await as('GET', '/v1/console/skills')).body.skills).toHaveLength(1);
  expect((await as('GET', `/v1/console/agents/${agent.body.id}`)).status).toBe(200);
});
