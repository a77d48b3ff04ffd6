import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { TestRelay } from '../fixtures';
import { expect } from '../fixtures';

/** Where the console tests leave a picture of every page (a test artifact, not committed). */
export const SCREENSHOTS = fileURLToPath(new URL('../test-results/console-screenshots/', import.meta.url));

/**
 * A console test signs in, visits pages and runs the agent in a real browser: on a loaded 2-core machine
 * that is well past Playwright's default 30 s.
 */
export const CONSOLE_TEST_MS = 120_000;

/** The password the console tests choose at the first sign-in. */
export const CHOSEN_PASSWORD = 'a password of my own 2026';

/** Signs the first account in as a person does on a fresh relay: the printed password, then a chosen one. */
export async function firstSignIn(page: Page, relay: TestRelay): Promise<void> {
  await page.goto(`${relay.url}/console`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(relay.email);
  await page.getByLabel('Password').fill(relay.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(CHOSEN_PASSWORD);
  await page.getByLabel('New password again').fill(CHOSEN_PASSWORD);
  await page.getByRole('button', { name: 'Save and open the console' }).click();
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
}

/** Signs in with an email and a password that needs no change. */
export async function signIn(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/console/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Console pages' })).toBeVisible();
}

/** Opens a console page from the side navigation, as a person does. */
export async function openPage(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name, exact: true }).click();
}

/** Saves a full-page picture of what the page shows now, in the theme it shows. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // From the top: the sticky top bar would otherwise be drawn where the page was scrolled to.
  await page.evaluate(() => window.scrollTo(0, 0));
  // Notices come and go on their own; the picture is of the page. (Hidden through the DOM: the page's CSP
  // refuses the style element that Playwright's `style` option would add.)
  const toasts = page.locator('.toasts');
  await toasts.evaluate((el: HTMLElement) => el.style.setProperty('display', 'none'));
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true, animations: 'disabled' });
  await toasts.evaluate((el: HTMLElement) => el.style.removeProperty('display'));
}

/** Switches the console to the dark theme with its toggle (remembered in this browser). */
export async function useDarkTheme(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Use the dark theme' }).first().click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
}

/** Makes a second account through the admin API and signs it in with a password it chose. */
export async function makeMember(
  relay: TestRelay,
  email: string,
  password: string,
): Promise<{ id: string; key: string }> {
  const made = await relay.api<{ account: { id: string } }>('POST', '/v1/console/accounts', { email, password });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.account.id;
  // A given password must still be changed at the first sign-in; the store does it the way the page would.
  const store = relay.relay.services.store;
  await store.accounts.setPassword(id, password, false);
  const { key } = await store.apiKeys.create(id, 'member key');
  return { id, key };
}
