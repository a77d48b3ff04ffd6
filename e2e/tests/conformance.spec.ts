// The driver conformance suite (fixtures/conformance.ts) against the extension driver: a local session
// in the browser with the extension loaded. The relay's tests run the same cases on the Playwright driver.
import { CONFORMANCE_CASES, type DriverUnderTest } from '@tandem/e2e/fixtures';
import { expect, test } from '../fixtures';
import { connectExtension, createLocalSession, sessionOf } from './local-helpers';

test.describe('driver conformance: the extension driver (local sessions)', () => {
  for (const c of CONFORMANCE_CASES) {
    test(c.name, async ({ relay, serviceWorker, site }) => {
      await connectExtension(relay, serviceWorker);
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
