import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, findChromium } from '../src/browser/chromium';
import { startTestRelay, type TestRelay } from './support';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is free-form JSON, walked by path in assertions.
type Json = any;

let relay: TestRelay;
beforeAll(async () => {
  relay = await startTestRelay();
});
afterAll(() => relay?.close());

describe('API reference', () => {
  it('serves an OpenAPI 3.1 document with every endpoint, generated from the schemas', async () => {
    const { status, body } = await relay.api<Record<string, Json>>('GET', '/v1/openapi.json', { key: null });
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    const operations = Object.entries(body.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual([
      'DELETE /v1/console/accounts/{id} deleteAccount',
      'DELETE /v1/console/agents/{id} deleteAgent',
      'DELETE /v1/console/api-keys/{id} revokeApiKey',
      'DELETE /v1/console/devices/{id} revokeDevice',
      'DELETE /v1/console/secrets/{name} deleteSecret',
      'DELETE /v1/console/sessions/{session_id} closeConsoleSession',
      'DELETE /v1/console/skills/{id} deleteSkill',
      'DELETE /v1/web/session/{session_id} closeSession',
      'GET /v1/console/accounts listAccounts',
      'GET /v1/console/agents listAgents',
      'GET /v1/console/agents/{id} getAgent',
      'GET /v1/console/api-keys listApiKeys',
      'GET /v1/console/auth authOptions',
      'GET /v1/console/devices listDevices',
      'GET /v1/console/guardrails getGuardrails',
      'GET /v1/console/me me',
      'GET /v1/console/secrets listSecrets',
      'GET /v1/console/sessions consoleSessions',
      'GET /v1/console/sessions/{session_id}/steps sessionSteps',
      'GET /v1/console/sessions/{session_id}/steps/live sessionStepsLive',
      'GET /v1/console/skills listSkills',
      'GET /v1/console/usage usage',
      'GET /v1/web/screenshot/{session_id} screenshot',
      'GET /v1/web/sessions listSessions',
      'PATCH /v1/console/accounts/{id} updateAccount',
      'PATCH /v1/console/agents/{id} updateAgent',
      'PATCH /v1/console/skills/{id} updateSkill',
      'POST /v1/console/accounts createAccount',
      'POST /v1/console/accounts/{id}/password resetPassword',
      'POST /v1/console/agents createAgent',
      'POST /v1/console/api-keys createApiKey',
      'POST /v1/console/auth/sign-in signIn',
      'POST /v1/console/auth/sign-out signOut',
      'POST /v1/console/auth/sign-up signUp',
      'POST /v1/console/devices/pairing-codes createPairingCode',
      'POST /v1/console/me/password changePassword',
      'POST /v1/console/skills createSkill',
      'POST /v1/console/skills/preview previewSkills',
      'POST /v1/web/browse browse',
      'POST /v1/web/retrieve retrieve',
      'POST /v1/web/session createSession',
      'POST /v1/web/session/{session_id} stepSession',
      'PUT /v1/console/guardrails setGuardrails',
      'PUT /v1/console/secrets/{name} putSecret',
    ]);
    const browse = body.components.schemas.BrowseRequest;
    expect(browse.required).toEqual(['cmd']);
    expect(browse.properties.max_steps).toMatchObject({ type: 'integer', minimum: 1, default: 20 });
    expect(body.components.schemas.RetrieveRequest.properties.max_items).toMatchObject({ default: 100, minimum: 0 });
    expect(body.components.schemas.StepRequest.required).toEqual(['cmd', 'stream']);
    expect(body.paths['/v1/web/browse'].post.responses['422'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/HTTPValidationError',
    });
    expect(body.components.securitySchemes.ApiKeyHeader).toMatchObject({ in: 'header', name: 'X_SERVICE_API_KEY' });
    expect(body.components.securitySchemes.ConsoleCookie).toMatchObject({ in: 'cookie', name: 'tandem_console' });
    // The agent API takes only keys; the admin API the console's cookie too; signing in needs nothing.
    expect(body.paths['/v1/web/browse'].post.security).toEqual([{ ApiKeyHeader: [] }, { BearerAuth: [] }]);
    expect(body.paths['/v1/console/skills'].get.security).toContainEqual({ ConsoleCookie: [] });
    expect(body.paths['/v1/console/auth/sign-in'].post.security).toEqual([]);
    // Passwords and secret values are write-only: documented so, never echoed.
    expect(body.components.schemas.SignInRequest.properties.password.writeOnly).toBe(true);
    expect(body.paths['/v1/console/usage'].get.parameters).toEqual([
      expect.objectContaining({ name: 'days', in: 'query', required: false }),
    ]);
    // Every $ref resolves inside the document.
    for (const [, name] of JSON.stringify(body).matchAll(/"#\/components\/schemas\/(\w+)"/g)) {
      expect(body.components.schemas, name).toHaveProperty(name!);
    }
  });

  it('serves a browsable reference at /docs from local files (no CDN)', async () => {
    const page = await relay.api('GET', '/docs', { key: null });
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(String(page.body)).not.toMatch(/https?:\/\//);
    for (const asset of ['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/init.js']) {
      const res = await fetch(`${relay.url}${asset}`);
      expect(res.status, asset).toBe(200);
      expect((await res.text()).length).toBeGreaterThan(10);
    }
  });

  it('renders the reference in a browser without a request leaving the relay', async () => {
    // Swagger UI calls out (its spec validator badge) only for hosts other than localhost, so the page is
    // opened under a made-up name that Chromium resolves to the relay.
    const port = new URL(relay.url).port;
    const browser = await chromium.launch({
      executablePath: findChromium(),
      args: [...chromiumArgs(), '--host-resolver-rules=MAP docs.test 127.0.0.1'],
    });
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`http://docs.test:${port}/docs`);
      await page.getByText('/v1/web/browse').first().waitFor();
      // Swagger UI loads in stages; on a loaded machine the last stage can come well after 30 s.
      await page.waitForLoadState('networkidle', { timeout: 100_000 });
      expect(requested.length).toBeGreaterThan(3);
      expect(requested.filter((url) => !url.startsWith(`http://docs.test:${port}/`))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 150_000);

  it('answers unknown routes with a 404 that points at the docs', async () => {
    const res = await relay.api('GET', '/v1/web/nothing');
    expect(res).toMatchObject({ status: 404, body: { statusCode: 404, error: 'Not Found' } });
    expect(res.body.message).toMatch(/\/docs/);
  });
});
