import { expect, test } from '../fixtures';
import { CONSOLE_TEST_MS, firstSignIn, openPage, screenshot } from './console-helpers';

test.describe.configure({ timeout: CONSOLE_TEST_MS });

test('a key created in the page works once copied, and stops working when revoked in the page', async ({
  page,
  relay,
}) => {
  await firstSignIn(page, relay);
  await openPage(page, 'API keys');
  await expect(page).toHaveTitle('API keys · Tandem console');
  // The bootstrap key of the fixture is listed by its prefix, never in full.
  await expect(page.getByRole('main')).not.toContainText(relay.key);

  await page.getByLabel('Name').fill('nightly export');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Copy it now: you will not see it again.')).toBeVisible();
  const key = await page.getByRole('textbox', { name: 'The new API key' }).inputValue();
  expect(key).toMatch(/^tdm_/);
  await expect(page.getByRole('button', { name: 'Copy the new API key' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'nightly export' });
  await expect(row).toContainText(key.slice(0, 8));
  await expect(row).toContainText('never');
  await screenshot(page, 'api-keys');

  const call = () => fetch(`${relay.url}/v1/web/sessions`, { headers: { Authorization: `Bearer ${key}` } });
  expect((await call()).status).toBe(200);
  // Gone once dismissed: the page holds the key nowhere else.
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByRole('textbox', { name: 'The new API key' })).toHaveCount(0);
  await page.reload();
  await expect(row).not.toContainText('never');

  await row.getByRole('button', { name: 'Revoke the key nightly export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke "nightly export"?' });
  await expect(dialog).toBeVisible();
  // Cancel leaves it alone; focus goes back to the button that opened the dialog.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('button', { name: 'Revoke the key nightly export' })).toBeFocused();
  expect((await call()).status).toBe(200);

  await row.getByRole('button', { name: 'Revoke the key nightly export' }).click();
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Key "nightly export" revoked.')).toBeVisible();
  await expect(row).toHaveCount(0);
  const refused = await call();
  expect(refused.status).toBe(401);
});

test('the key form says what is wrong beside the field', async ({ page, relay }) => {
  await firstSignIn(page, relay);
  await openPage(page, 'API keys');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toContainText('name');
  await expect(page.getByRole('alert')).not.toContainText('{');
});
