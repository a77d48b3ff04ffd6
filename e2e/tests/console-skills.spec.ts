import { expect, test } from '../fixtures';
import { CONSOLE_TEST_MS, firstSignIn, openPage, screenshot } from './console-helpers';
import { connectExtension } from './local-helpers';
import { decision, promptOf } from './model-helpers';

test.describe.configure({ timeout: CONSOLE_TEST_MS });

test.describe('with the scripted model', () => {
  test.use({ useModel: true });

  test('a rule added in the page reaches the prompt on its sites and on no other', async ({
    page,
    relay,
    model,
    site,
  }) => {
    await firstSignIn(page, relay);
    await openPage(page, 'Skills');
    await expect(page.getByText('No rules yet')).toBeVisible();
    await page.getByLabel('Sites').fill('127.0.0.1');
    await page.getByLabel('Rule', { exact: true }).fill('Never tick "Keep me signed in".');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expect(page.getByRole('listitem').filter({ hasText: 'Never tick "Keep me signed in".' })).toBeVisible();
    await page.getByLabel('Sites').fill('shop.example');
    await page.getByLabel('Rule', { exact: true }).fill('Compare prices before adding to the cart.');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expect(page.getByRole('listitem').filter({ hasText: 'Compare prices' })).toBeVisible();

    // The preview answers by the agent's own matching.
    await page.getByLabel('Page URL').fill(`${site.url}/login.html`);
    await page.getByRole('button', { name: 'Check' }).click();
    await expect(page.locator('.preview')).toContainText('Never tick');
    await expect(page.locator('.preview')).not.toContainText('Compare prices');
    await screenshot(page, 'skills');

    const stepOn = async (url: string) => {
      const created = await relay.api<{ session_id: string }>('POST', '/v1/web/session', { url });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      model.script(decision([{ action: 'done', message: 'Looked.' }]));
      const before = model.requests.length;
      const res = await relay.api('POST', `/v1/web/session/${created.body.session_id}`, { cmd: 'look', stream: false });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return promptOf(model.requests[before]);
    };
    const matching = await stepOn(`${site.url}/login.html`);
    expect(matching).toContain('Never tick "Keep me signed in".');
    expect(matching).not.toContain('Compare prices');
    // The same pages under another host name: the rule is not for it.
    const elsewhere = await stepOn(`${site.url.replace('127.0.0.1', 'localhost')}/login.html`);
    expect(elsewhere).not.toContain('Never tick');

    // Disabled in the page: kept, no longer read.
    await page.getByRole('switch', { name: /Enabled: 127\.0\.0\.1/ }).click();
    await expect(page.getByText('Rule disabled')).toBeVisible();
    expect(await stepOn(`${site.url}/login.html`)).not.toContain('Never tick');
  });
});

test('a rule is edited in a dialog and deleted with a confirmation', async ({ page, relay }) => {
  await firstSignIn(page, relay);
  await openPage(page, 'Skills');
  await page.getByLabel('Sites').fill('docs.example');
  await page.getByLabel('Rule', { exact: true }).fill('Read the whole page first.');
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByRole('button', { name: 'Edit the rule for docs.example' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit the rule' });
  await expect(dialog.getByLabel('Sites')).toBeFocused();
  await dialog.getByLabel('Sites').fill('not a pattern!');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByLabel('Sites')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Sites').fill('*.docs.example');
  await dialog.getByLabel('Rule', { exact: true }).fill('Read the summary first.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const skills = await relay.api<{ skills: { host_pattern: string; rule: string }[] }>('GET', '/v1/console/skills');
  expect(skills.body.skills).toMatchObject([{ host_pattern: '*.docs.example', rule: 'Read the summary first.' }]);

  await page.getByRole('button', { name: 'Delete the rule for *.docs.example' }).click();
  await page.getByRole('dialog', { name: 'Delete this rule?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No rules yet')).toBeVisible();
});

test('a host blocked on the skills page is refused in remote and in local sessions', async ({
  page,
  relay,
  site,
  serviceWorker,
}) => {
  await firstSignIn(page, relay);
  await openPage(page, 'Skills');
  const guardrails = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Guardrails' }) });
  await expect(guardrails).toContainText('File uploads');
  await expect(guardrails).toContainText('always blocked');
  await guardrails.getByLabel('Blocked hosts').fill('localhost\n');
  await guardrails.getByRole('button', { name: 'Save guardrails' }).click();
  await expect(page.getByText('Guardrails saved')).toBeVisible();
  expect((await relay.api('GET', '/v1/console/guardrails')).body).toMatchObject({ blocked_hosts: ['localhost'] });

  const blocked = `${site.url.replace('127.0.0.1', 'localhost')}/form.html`;
  await connectExtension(relay, serviceWorker);
  for (const local of [false, true]) {
    const refused = await relay.api<{ message: string }>('POST', '/v1/web/session', { url: blocked, local });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.message).toContain("localhost is blocked by this account's guardrails (localhost)");

    // Navigating there from an allowed page is refused too (the built-in planner follows "open …").
    const created = await relay.api<{ session_id: string }>('POST', '/v1/web/session', {
      url: `${site.url}/index.html`,
      local,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const step = await relay.api<{ message: string; url: string }>(
      'POST',
      `/v1/web/session/${created.body.session_id}`,
      { cmd: `open ${blocked}`, stream: false },
    );
    expect(JSON.stringify(step.body), `local: ${local}`).toContain("blocked by this account's guardrails");
    expect(step.body.url ?? '').not.toContain('localhost');
  }
});
