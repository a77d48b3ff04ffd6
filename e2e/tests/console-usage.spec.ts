import { expect, test } from '../fixtures';
import { CONSOLE_TEST_MS, firstSignIn, openPage, screenshot } from './console-helpers';

test.describe.configure({ timeout: CONSOLE_TEST_MS });

test('the usage page shows the steps and retrieve calls per day and per key, and the quota', async ({
  page,
  relay,
  site,
}) => {
  const created = await relay.api<{ session_id: string }>('POST', '/v1/web/session', { url: `${site.url}/long.html` });
  const id = created.body.session_id;
  for (const cmd of ['scroll down', 'scroll down']) {
    const step = await relay.api('POST', `/v1/web/session/${id}`, { cmd, stream: false });
    expect(step.status, JSON.stringify(step.body)).toBe(200);
  }
  const retrieved = await relay.api('POST', '/v1/web/retrieve', {
    cmd: 'the rows',
    url: `${site.url}/table.html`,
    mode: 'ludicrous',
  });
  expect(retrieved.status, JSON.stringify(retrieved.body)).toBe(200);

  await firstSignIn(page, relay);
  await openPage(page, 'Usage');
  const totals = page.getByRole('list', { name: /^Totals from/ });
  await expect(totals.getByRole('listitem').filter({ hasText: 'agent steps' })).toContainText('2');
  await expect(totals.getByRole('listitem').filter({ hasText: 'retrieve calls' })).toContainText('1');
  const quota = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Monthly step quota' }) });
  await expect(quota).toContainText('unlimited');
  const perKey = page.getByRole('row').filter({ hasText: 'bootstrap key' });
  await expect(perKey.getByRole('cell')).toHaveText([/bootstrap key/, '2', '1', '0', '0']);
  await page.getByText('The days as a table').click();
  const today = new Date().toISOString().slice(0, 10);
  await expect(page.getByRole('row').filter({ hasText: today })).toContainText('2');
  await page.getByRole('button', { name: '7 days' }).click();
  await expect(page.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(totals).toHaveAccessibleName(/^Totals from/);
  await screenshot(page, 'usage');
});

test('a quota used up, set by an admin on the Accounts page, answers 402 on browse, step and retrieve', async ({
  page,
  relay,
  site,
}) => {
  const created = await relay.api<{ session_id: string }>('POST', '/v1/web/session', { url: `${site.url}/long.html` });
  const id = created.body.session_id;
  expect((await relay.api('POST', `/v1/web/session/${id}`, { cmd: 'scroll down', stream: false })).status).toBe(200);

  await firstSignIn(page, relay);
  await openPage(page, 'Accounts');
  // Make a member too: the page shows its made password once.
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByRole('button', { name: 'Make account' }).click();
  const made = await page.getByRole('textbox', { name: 'The made password' }).inputValue();
  expect(made.length).toBeGreaterThanOrEqual(16);
  const signIn = await fetch(`${relay.url}/v1/console/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com', password: made }),
  });
  expect(((await signIn.json()) as { account: { must_change_password: boolean } }).account.must_change_password).toBe(
    true,
  );
  await page.getByRole('button', { name: 'I have copied it' }).click();
  const ada = page.getByRole('row').filter({ hasText: 'ada@example.com' });
  await expect(ada).toContainText('has not chosen a password yet');
  await expect(ada).toContainText('member');

  const me = page.getByRole('row').filter({ hasText: relay.email });
  await expect(me).toContainText('unlimited');
  await expect(me.getByRole('cell').nth(2)).toHaveText('1');
  await me.getByRole('button', { name: `Change ${relay.email}` }).click();
  const dialog = page.getByRole('dialog', { name: `Change ${relay.email}` });
  await dialog.getByLabel('Monthly step quota').fill('1');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(me.getByRole('cell').nth(3)).toHaveText('1');
  await screenshot(page, 'accounts');

  const calls: [string, Record<string, unknown>][] = [
    ['/v1/web/browse', { cmd: 'Open the form', url: `${site.url}/form.html` }],
    [`/v1/web/session/${id}`, { cmd: 'scroll down', stream: false }],
    ['/v1/web/retrieve', { cmd: 'the rows', url: `${site.url}/table.html`, mode: 'ludicrous' }],
  ];
  for (const [path, body] of calls) {
    const refused = await relay.api<{ message: string }>('POST', path, body);
    expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(402);
    expect(refused.body.message).toContain('has used 1 of its 1 agent steps for this month');
  }
  await openPage(page, 'Usage');
  const quota = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Monthly step quota' }) });
  await expect(quota).toContainText('1 of 1 steps used');
  await expect(quota).toContainText('used up');

  // Lifted again: empty means unlimited.
  await openPage(page, 'Accounts');
  await me.getByRole('button', { name: `Change ${relay.email}` }).click();
  await dialog.getByLabel('Monthly step quota').fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(me).toContainText('unlimited');
  expect((await relay.api('POST', `/v1/web/session/${id}`, { cmd: 'scroll down', stream: false })).status).toBe(200);

  // Reset and delete, each with a confirmation.
  await ada.getByRole('button', { name: 'Reset password of ada@example.com' }).click();
  await page
    .getByRole('dialog', { name: 'Reset the password of ada@example.com?' })
    .getByRole('button', { name: 'Reset password' })
    .click();
  const reset = await page.getByRole('textbox', { name: 'The made password' }).inputValue();
  expect(reset).not.toBe(made);
  await ada.getByRole('button', { name: 'Delete the account ada@example.com' }).click();
  await page.getByRole('dialog', { name: 'Delete ada@example.com?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(ada).toHaveCount(0);
});
