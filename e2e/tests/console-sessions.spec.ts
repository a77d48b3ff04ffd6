import { expect, test } from '../fixtures';
import { CONSOLE_TEST_MS, firstSignIn, screenshot, useDarkTheme } from './console-helpers';
import { decision, indexIn } from './model-helpers';

test.describe.configure({ timeout: CONSOLE_TEST_MS });

test.use({ useModel: true });

test('the sessions page lists sessions live, and the timeline shows each step as it finishes, without a reload', async ({
  page,
  relay,
  model,
  site,
}) => {
  await firstSignIn(page, relay);
  await expect(page.getByText('No sessions yet')).toBeVisible();
  await screenshot(page, 'sessions-empty');

  const created = await relay.api<{ session_id: string }>('POST', '/v1/web/session', { url: `${site.url}/form.html` });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.session_id;
  // The list refreshes itself.
  const row = page.getByRole('row').filter({ hasText: id.slice(0, 11) });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row).toContainText('remote');
  await expect(row).toContainText('idle');
  await expect(row).toContainText('form.html');

  await row.getByRole('link', { name: `Open the timeline of ${id}` }).click();
  await expect(page).toHaveURL(`${relay.url}/console/sessions/${id}`);
  await expect(page.getByText('No steps yet')).toBeVisible();
  // A mark on the page's window: still there after the steps came, so they came without a reload.
  await page.evaluate(() => Object.assign(window, { notReloaded: true }));
  await expect(page.getByText('live', { exact: true })).toBeVisible();

  model.script(
    (request) =>
      decision(
        [
          { action: 'type', index: indexIn(request, /<input[^>]*Your name/), text: 'Ada' },
          { action: 'type', index: indexIn(request, /<input type=email/), text: 'ada@example.com' },
        ],
        'Fill in the name and email fields',
      ),
    (request) => decision([{ action: 'click', index: indexIn(request, /<button[^>]*>Send/) }], 'Send the form'),
    decision([{ action: 'done', message: 'The form was sent for Ada.' }], 'Report that the form was sent'),
  );
  const step = (cmd: string) => relay.api<{ status: string }>('POST', `/v1/web/session/${id}`, { cmd, stream: false });
  expect((await step('Fill in the form for Ada (ada@example.com) and send it')).status).toBe(200);
  const first = page.getByRole('article', { name: 'Step 1' });
  await expect(first).toContainText('Fill in the name and email fields');
  await expect(first).toContainText('Fill in the form for Ada (ada@example.com) and send it');
  await expect(first.getByRole('list', { name: 'Actions of step 1' }).getByRole('listitem')).toHaveCount(2);
  await expect(first).toContainText('type [');

  await step('');
  await step('');
  const last = page.getByRole('article', { name: 'Step 3' });
  await expect(last).toContainText('The form was sent for Ada.');
  await expect(last).toContainText('done');
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  // Each step has its screenshot, which opens large in a dialog.
  await expect(page.getByRole('img', { name: 'The page after step 2' })).toBeVisible();
  await page.getByRole('button', { name: 'Enlarge the screenshot of step 2' }).click();
  const enlarged = page.getByRole('dialog', { name: 'After step 2' });
  await expect(enlarged.getByRole('img')).toBeVisible();
  await expect
    .poll(() => enlarged.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(100);
  await page.keyboard.press('Escape');
  await expect(enlarged).toBeHidden();
  await screenshot(page, 'timeline');

  await page.getByRole('link', { name: 'Sessions', exact: true }).first().click();
  await expect(row).toContainText('done');
  await expect(row).toContainText('3 steps');
  await expect(row.getByRole('img')).toHaveCount(0); // the thumbnail is decoration: the timeline link names it
  await screenshot(page, 'sessions');
  await useDarkTheme(page);
  await screenshot(page, 'sessions-dark');
  await row.getByRole('link', { name: `Open the timeline of ${id}` }).click();
  await expect(page.getByRole('article', { name: 'Step 3' })).toBeVisible();
  await screenshot(page, 'timeline-dark');
  // The theme is remembered.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  // Close, with a confirmation; the stream says the session ended.
  await page.getByRole('button', { name: `Close the session ${id}` }).click();
  await page
    .getByRole('dialog', { name: 'Close this session?' })
    .getByRole('button', { name: 'Close', exact: true })
    .click();
  await expect(page.getByText('Session closed.')).toBeVisible();
  await expect(page.getByRole('main').getByText('ended', { exact: true })).toBeVisible({ timeout: 10_000 });
  expect((await relay.api('GET', `/v1/web/screenshot/${id}`)).status).toBe(404);
});

test('the timeline of a finished session is still there after the relay restarts', async ({
  page,
  relay,
  model,
  site,
}) => {
  const created = await relay.api<{ session_id: string }>('POST', '/v1/web/session', { url: `${site.url}/login.html` });
  const id = created.body.session_id;
  model.script(decision([{ action: 'done', message: 'This is the sign-in page of the fixture site.' }], 'Answer'));
  const answered = await relay.api('POST', `/v1/web/session/${id}`, { cmd: 'What page is this?', stream: false });
  expect(answered.status, JSON.stringify(answered.body)).toBe(200);
  expect((await relay.api('DELETE', `/v1/web/session/${id}`)).status).toBe(200);

  await relay.restart();
  await firstSignIn(page, relay);
  const row = page.getByRole('row').filter({ hasText: id.slice(0, 11) });
  await expect(row).toContainText('ended');
  await expect(row).toContainText('closed');
  await row.getByRole('link', { name: `Open the timeline of ${id}` }).click();
  const step = page.getByRole('article', { name: 'Step 1' });
  await expect(step).toContainText('What page is this?');
  await expect(step).toContainText('This is the sign-in page of the fixture site.');
  await expect(step).toContainText(`${site.url}/login.html`);
  await expect(page.getByRole('img', { name: 'The page after step 1' })).toBeVisible();
  await expect(page.getByText('live', { exact: true })).toHaveCount(0);
  // A reload of the page shows the same, signed in as before.
  await page.reload();
  await expect(page.getByRole('article', { name: 'Step 1' })).toContainText('What page is this?');
});
