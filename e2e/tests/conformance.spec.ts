// The driver conformance suite (fixtures/conformance.ts) against the extension driver: a local session
// in the browser with the extension loaded. The relay's tests run the same cases on the Playwright driver.
import { CONFORMANCE_CASES, type DriverUnderTest, INPUT_POLICY_CASE } from '@tandem/e2e/fixtures';
import { expect, test } from '../fixtures';
import { connectExtension, createLocalSession, sessionOf } from './local-helpers';

// The evaluated callback runs in the extension's service worker.
declare const chrome: { storage: { local: { set(items: Record<string, unknown>): Promise<void> } } };

const runs = [
  ...CONFORMANCE_CASES.map((c) => ({ c, trusted: false })),
  // With the popup's Trusted input on, clicks and keys go through the debugger: the words stay the same.
  { c: INPUT_POLICY_CASE, trusted: true },
];

test.describe('driver conformance: the extension driver (local sessions)', () => {
  for (const { c, trusted } of runs) {
    test(`${c.name}${trusted ? ' (trusted input)' : ''}`, async ({ relay, serviceWorker, site }) => {
      await connectExtension(relay, serviceWorker);
      await serviceWorker.evaluate((on) => chrome.storage.local.set({ trustedInput: on }), trusted);
      const open = async (path: string): Promise<DriverUnderTest> => {
        const created = await createLocalSession(relay, `${site.url}${path}`);
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const { driver } = sessionOf(relay, created.body.session_id);
        expect(driver.kind).toBe('extension');
        return driver;
      };
      await c.run({ site: site.url, open });
    });
  }
});
