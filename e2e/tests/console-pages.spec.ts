import { expect, test } from '../fixtures';
import { CONSOLE_TEST_MS, firstSignIn, openPage, SCREENSHOTS, screenshot } from './console-helpers';
import { connectionStatus } from './local-helpers';

test.describe.configure({ timeout: CONSOLE_TEST_MS });

test('agents are made, shown with their agent_id, changed and deleted in the page', async ({ page, relay }) => {
  await relay.api('POST', '/v1/console/skills', { host_pattern: 'shop.example', rule: 'Compare prices first.' });
  await relay.api('POST', '/v1/console/skills', { host_pattern: 'mail.example', rule: 'Never send without asking.' });
  await firstSignIn(page, relay);
  await openPage(page, 'Agents');
  await expect(page.getByText('No agents yet')).toBeVisible();
  await page.getByRole('button', { name: 'New agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'New agent' });
  await dialog.getByLabel('Name').fill('careful shopper');
  await dialog.getByLabel('Instructions').fill('Answer in French. Never buy anything.');
  await dialog.getByLabel('Default mode').selectOption('standard');
  await dialog.getByLabel('Temperature').fill('0.2');
  await dialog.getByLabel('Max steps').fill('12');
  await dialog.getByLabel('Only the ones chosen here').check();
  await dialog.getByRole('checkbox', { name: /shop\.example/ }).check();
  await dialog.getByRole('button', { name: 'Make agent' }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'careful shopper' }) });
  await expect(card).toContainText('Answer in French. Never buy anything.');
  await expect(card).toContainText('standard');
  await expect(card).toContainText('0.2');
  await expect(card).toContainText('12');
  await expect(card).toContainText('shop.example');
  await expect(card).not.toContainText('mail.example');
  const agents = await relay.api<{ agents: { id: string; skill_ids: string[] }[] }>('GET', '/v1/console/agents');
  const [agent] = agents.body.agents;
  expect(agent?.skill_ids).toHaveLength(1);
  await expect(card.getByText(agent!.id, { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Copy the agent_id of careful shopper' })).toBeVisible();
  await screenshot(page, 'agents');

  await card.getByRole('button', { name: 'Edit careful shopper' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit the agent' });
  await expect(edit.getByLabel('Name')).toHaveValue('careful shopper');
  await edit.getByLabel('All matching').check();
  await edit.getByLabel('Temperature').fill('5');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByLabel('Temperature')).toHaveAttribute('aria-invalid', 'true');
  await edit.getByLabel('Temperature').fill('');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(card).toContainText('all matching');
  await expect(card).toContainText("model's");

  await card.getByRole('button', { name: 'Delete careful shopper' }).click();
  await page.getByRole('dialog', { name: 'Delete "careful shopper"?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No agents yet')).toBeVisible();
});

test('secrets are saved write-only, replaced and deleted; the page says how to use them', async ({ page, relay }) => {
  await firstSignIn(page, relay);
  await openPage(page, 'Secrets');
  await expect(page.getByRole('main')).toContainText('<secret:name>');
  await page.getByLabel('Name').fill('shop_password');
  await page.getByLabel('Value').fill('correct horse battery');
  await page.getByLabel('Site').fill('shop.example');
  await page.getByRole('button', { name: 'Save secret' }).click();
  const row = page.getByRole('row').filter({ hasText: 'shop_password' });
  await expect(row).toContainText('<secret:shop_password>');
  await expect(row).toContainText('shop.example');
  await expect(page.getByLabel('Value')).toHaveValue('');
  await expect(page.getByRole('main')).not.toContainText('correct horse battery');
  await screenshot(page, 'secrets');

  await row.getByRole('button', { name: 'Replace the secret shop_password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replace "shop_password"' });
  await expect(dialog.getByLabel('Value')).toHaveAttribute('type', 'password');
  await dialog.getByLabel('Value').fill('a new value 456');
  await dialog.getByRole('button', { name: 'Replace' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('any site');
  const listed = await relay.api('GET', '/v1/console/secrets');
  expect(JSON.stringify(listed.body)).not.toContain('a new value 456');

  await row.getByRole('button', { name: 'Delete the secret shop_password' }).click();
  await page.getByRole('dialog', { name: 'Delete "shop_password"?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No secrets')).toBeVisible();
});

test('"Pair a browser" shows a code the extension popup signs in with; the device is listed and revoked', async ({
  page,
  relay,
  context,
  extensionId,
  serviceWorker,
}) => {
  await firstSignIn(page, relay);
  await openPage(page, 'Devices');
  await expect(page.getByText('No devices')).toBeVisible();
  await page.getByRole('button', { name: 'Pair a browser' }).click();
  const code = (await page.getByRole('status', { name: 'Pairing code' }).textContent()) ?? '';
  expect(code.length).toBeGreaterThan(4);
  await expect(page.getByRole('main')).toContainText('Expires in');

  const popup = await context.newPage();
  await popup.setViewportSize({ width: 312, height: 420 });
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  await popup.getByLabel('Relay URL').fill(relay.url);
  await popup.getByLabel('Pairing code').fill(code);
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await expect(popup.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await popup.getByRole('switch', { name: 'API Enabled' }).click();
  await expect.poll(() => connectionStatus(serviceWorker)).toBe('connected');
  await popup.screenshot({ path: `${SCREENSHOTS}popup.png` });

  await page.bringToFront();
  const row = page.getByRole('row').filter({ hasText: 'connected' });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row.getByRole('cell').nth(2)).toHaveText('on');
  await screenshot(page, 'devices');
  await row.getByRole('button', { name: /^Revoke the device/ }).click();
  await page
    .getByRole('dialog', { name: /^Revoke/ })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(page.getByText('No devices')).toBeVisible();
  await expect.poll(() => connectionStatus(serviceWorker), { timeout: 10_000 }).not.toBe('connected');
});
