import { expect, test } from '../fixtures';
import { CHOSEN_PASSWORD, CONSOLE_TEST_MS, firstSignIn, openPage, screenshot, signIn } from './console-helpers';

test.describe.configure({ timeout: CONSOLE_TEST_MS });

test('the first sign-in uses the printed password, then makes you choose your own before anything else', async ({
  page,
  relay,
}) => {
  // The root of the relay is the console.
  await page.goto(relay.url);
  await expect(page).toHaveURL(`${relay.url}/console/sign-in`);
  await expect(page).toHaveTitle('Sign in · Tandem console');
  // No sign-up link: TANDEM_ALLOW_SIGNUP is off.
  await expect(page.getByRole('link', { name: 'Make one' })).toHaveCount(0);
  await screenshot(page, 'sign-in');

  await page.getByLabel('Email').fill(relay.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Wrong email or password');

  await page.getByLabel('Password').fill(relay.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  await expect(page).toHaveURL(`${relay.url}/console/password`);
  await screenshot(page, 'choose-password');
  // Any other page sends you back here until the password is chosen.
  await page.goto(`${relay.url}/console/api-keys`);
  await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  // After a reload the page no longer knows the made password: it asks for it.
  await page.getByLabel('Current password').fill(relay.password);
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('New password again').fill('short');
  await page.getByRole('button', { name: 'Save and open the console' }).click();
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toContainText('new password');

  await page.getByLabel('Current password').fill(relay.password);
  await page.getByLabel('New password', { exact: true }).fill(CHOSEN_PASSWORD);
  await page.getByLabel('New password again').fill(CHOSEN_PASSWORD);
  await page.getByRole('button', { name: 'Save and open the console' }).click();
  // Back where it was going.
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(relay.email);

  // The printed password no longer works; the chosen one does.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  const old = await fetch(`${relay.url}/v1/console/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: relay.email, password: relay.password }),
  });
  expect(old.status).toBe(401);
  await signIn(page, relay.url, relay.email, CHOSEN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
});

test('the account page changes the password and signs out; members see no Accounts page', async ({ page, relay }) => {
  await firstSignIn(page, relay);
  await openPage(page, 'Your account');
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await screenshot(page, 'settings');
  await page.getByLabel('Current password').fill('wrong current password');
  await page.getByLabel('New password', { exact: true }).fill('yet another password 1');
  await page.getByLabel('New password again').fill('yet another password 1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Current password').fill(CHOSEN_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed.')).toBeVisible();

  await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  const member = await relay.api<{ account: { id: string } }>('POST', '/v1/console/accounts', {
    email: 'member@example.com',
    password: 'member password 2026',
  });
  expect(member.status).toBe(201);
  await relay.relay.services.store.accounts.setPassword(member.body.account.id, 'member password 2026', false);
  await signIn(page, relay.url, 'member@example.com', 'member password 2026');
  const nav = page.getByRole('navigation', { name: 'Console pages' });
  await expect(nav.getByRole('link', { name: 'Skills' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Accounts' })).toHaveCount(0);
  await page.goto(`${relay.url}/console/accounts`);
  await expect(page.getByRole('heading', { name: 'No such page' })).toBeVisible();
});

test.describe('with TANDEM_ALLOW_SIGNUP', () => {
  test.use({ relayEnv: { TANDEM_ALLOW_SIGNUP: true } });

  test('the sign-in page offers to make an account, which is a member signed in at once', async ({ page, relay }) => {
    await page.goto(`${relay.url}/console`);
    await page.getByRole('link', { name: 'Make one' }).click();
    await expect(page.getByRole('heading', { name: 'Make an account' })).toBeVisible();
    await screenshot(page, 'sign-up');
    await page.getByLabel('Email').fill('new.person@example.com');
    await page.getByLabel('Password', { exact: true }).fill('my own password 2026');
    await page.getByLabel('Password again').fill('not the same one at all');
    await page.getByRole('button', { name: 'Make the account' }).click();
    await expect(page.getByRole('alert')).toContainText('differ');
    await page.getByLabel('Password again').fill('my own password 2026');
    await page.getByRole('button', { name: 'Make the account' }).click();
    await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText('new.person@example.com');
    const nav = page.getByRole('navigation', { name: 'Console pages' });
    await expect(nav.getByRole('link', { name: 'Accounts' })).toHaveCount(0);
  });
});
