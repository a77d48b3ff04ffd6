import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from './support';

let relay: TestRelay;
beforeAll(async () => {
  relay = await startTestRelay();
});
afterAll(async () => {
  await relay?.close();
});

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

describe('the console pages', () => {
  it('send / to the console, and answer every /console path with the app page under a strict CSP', async () => {
    const root = await fetch(`${relay.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console');
    for (const path of ['/console', '/console/', '/console/sessions/ses_n0_x', '/console/api-keys']) {
      const res = await fetch(`${relay.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(CSP);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      const html = await res.text();
      // Nothing from elsewhere, and no inline script for the CSP to refuse.
      expect(html).not.toMatch(/https?:\/\//);
      expect(html).not.toMatch(/<script>/);
      expect(html).toMatch(/<script type="module" src="\/console\/assets\/app-\w+\.js">/);
    }
  }, 60_000);

  it('serve the bundled script and styles (Pico included) under hashed names, cached for good', async () => {
    const html = await (await fetch(`${relay.url}/console`)).text();
    const assets = [...html.matchAll(/\/console\/assets\/[\w.-]+/g)].map((m) => m[0]);
    expect(assets).toHaveLength(3);
    for (const asset of assets) {
      const res = await fetch(`${relay.url}${asset}`);
      expect(res.status, asset).toBe(200);
      if (!asset.endsWith('.svg')) expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toBe(CSP);
      const body = await res.text();
      if (asset.endsWith('.css')) expect(body).toContain('--pico-');
      if (asset.endsWith('.js')) {
        expect(body.length).toBeGreaterThan(10_000);
        // Types only from the contract: zod never reaches the page.
        expect(body).not.toContain('ZodError');
      }
    }
    const missing = await fetch(`${relay.url}/console/assets/app-OLD.js`);
    expect(missing.status).toBe(404);
  }, 60_000);
});
