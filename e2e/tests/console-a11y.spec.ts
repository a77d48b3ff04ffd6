// Every console page, with something on it, checked by axe-core (WCAG 2.x A and AA: contrast, labels, names,
// landmarks) in the light and the dark theme, and the console used with the keyboard alone. The other
// console specs find controls by role and label; these catch what a role query cannot see, such as grey
// text too faint to read or a control the Tab key never reaches.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, type TestRelay, test } from '../fixtures';
import { CHOSEN_PASSWORD, CONSOLE_TEST_MS, firstSignIn, openPage, useDarkTheme } from './console-helpers';

// Three independent tests, each with its own relay: both workers can take them.
test.describe.configure({ mode: 'parallel', timeout: CONSOLE_TEST_MS });

const PAGES = ['Sessions', 'API keys', 'Skills', 'Agents', 'Secrets', 'Devices', 'Usage', 'Accounts', 'Your account'];

/** The rule ids axe finds broken on what the page shows now, each with the elements it names. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** Something on every page: a key, a rule, an agent, a secret, a session with a recorded step. */
async function fill(relay: TestRelay, siteUrl: string): Promise<string> {
  const made = await Promise.all([
    relay.api('POST', '/v1/console/api-keys', { name: 'laptop scripts' }),
    relay.api('POST', '/v1/console/skills', { host_pattern: '*.example.com', rule: 'Compare prices first.' }),
    relay.api('POST', '/v1/console/agents', { name: 'careful shopper', instructions: 'Never buy anything.' }),
    relay.api('PUT', '/v1/console/secrets/shop_password', { value: 'hunter22 x', host_pattern: 'shop.example' }),
  ]);
  for (const res of made) expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  const created = await relay.api<{ session_id: string }>('POST', '/v1/web/session', { url: `${siteUrl}/form.html` });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.session_id;
  const step = await relay.api('POST', `/v1/web/session/${id}`, {
    cmd: 'Type "Ada" into the Your name field',
    stream: false,
  });
  expect(step.status, JSON.stringify(step.body)).toBe(200);
  return id;
}

for (const theme of ['light', 'dark'] as const) {
  test(`every console page passes axe (WCAG 2.1 A and AA) in the ${theme} theme`, async ({ page, relay, site }) => {
    const found: string[] = [];
    if (theme === 'light') {
      await page.goto(`${relay.url}/console`);
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      found.push(...(await violations(page)).map((v) => `sign-in: ${v}`));
    }
    const sessionId = await fill(relay, site.url);
    await firstSignIn(page, relay);
    if (theme === 'dark') await useDarkTheme(page);
    for (const name of PAGES) {
      await openPage(page, name);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      // Lists load after the heading: wait until nothing is loading.
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      found.push(...(await violations(page)).map((v) => `${name}: ${v}`));
    }
    await page.goto(`${relay.url}/console/sessions/${sessionId}`);
    await expect(page.getByRole('article', { name: 'Step 1' })).toBeVisible();
    found.push(...(await violations(page)).map((v) => `timeline: ${v}`));
    expect(found).toEqual([]);
  });
}

/** Presses Tab until `target` has the focus, as a keyboard user moves through the page; fails if it never does. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 60; presses++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

test('the console is used with the keyboard alone: sign in, choose a password, open a page, make a key', async ({
  page,
  relay,
}) => {
  await page.goto(`${relay.url}/console`);
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(relay.email);
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(relay.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  await tabTo(page, page.getByLabel('New password', { exact: true }));
  await page.keyboard.type(CHOSEN_PASSWORD);
  await tabTo(page, page.getByLabel('New password again'));
  await page.keyboard.type(CHOSEN_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();

  // A page the console moves to takes the focus to its title, so a screen reader starts there.
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeFocused();

  const nav = page.getByRole('navigation', { name: 'Console pages' });
  await tabTo(page, nav.getByRole('link', { name: 'API keys', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeFocused();
  await tabTo(page, page.getByLabel('Name'));
  await page.keyboard.type('made with the keyboard');
  await page.keyboard.press('Enter');
  const key = page.getByRole('textbox', { name: 'The new API key' });
  await expect(key).toHaveValue(/^tdm_/);
  await tabTo(page, page.getByRole('button', { name: 'I have copied it' }));
  await page.keyboard.press('Enter');
  await expect(key).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: 'made with the keyboard' })).toBeVisible();

  // A dialog opened from the keyboard takes the focus, and Escape gives it back to its button.
  const revoke = page.getByRole('button', { name: 'Revoke the key made with the keyboard' });
  await tabTo(page, revoke);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Revoke "made with the keyboard"?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(revoke).toBeFocused();
});
