// The driver conformance suite (e2e/fixtures/conformance.ts) against the Playwright driver; e2e runs
// the same cases against the extension driver in a browser with the extension loaded.
import { CONFORMANCE_CASES } from '@tandem/e2e/fixtures';
import { describe, it } from 'vitest';
import { usePlaywrightDrivers } from './playwright-drivers';

const h = usePlaywrightDrivers();

describe('driver conformance: the Playwright driver (remote sessions)', () => {
  for (const c of CONFORMANCE_CASES) it(c.name, () => c.run({ site: h.site.url, open: h.open }));
});
