// Every console page, with something on it, checked by axe-core (WCAG 2.x A and AA: contrast, labels, names,
// landmarks) in the light and the dark theme. The other console specs drive the pages with the keyboard
// and by role; this one catches what a role query cannot see, such as grey text too faint to read.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, type TestRelay, test } from '../fixtures';
import { CONSOLE_TEST_MS, firstSignIn, openPage, useDarkTheme } from './console-helpers';

test.describe.configure({ timeout: CONSOLE_TEST_MS * 2 });

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

test('every console page passes axe (WCAG 2.1 A and AA) in the light and the dark theme', async ({
  page,
  relay,
  site,
}) => {
  await page.goto(`${relay.url}/console`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  const found: string[] = (await violations(page)).map((v) => `sign-in: ${v}`);

  const sessionId = await fill(relay, site.url);
  await firstSignIn(page, relay);
  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') await useDarkTheme(page);
    for (const name of PAGES) {
      await openPage(page, name);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      // Lists load after the heading: wait until nothing is loading.
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      found.push(...(await violations(page)).map((v) => `${theme} ${name}: ${v}`));
    }
    await page.goto(`${relay.url}/console/sessions/${sessionId}`);
    await expect(page.getByRole('article', { name: 'Step 1' })).toBeVisible();
    found.push(...(await violations(page)).map((v) => `${theme} timeline: ${v}`));
  }
  expect(found).toEqual([]);
});
