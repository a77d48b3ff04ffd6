/** Every retrieve fixture case through POST /v1/web/retrieve in ludicrous mode: the exact data. */
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { caseRequest, RETRIEVE_CASES, type RetrieveCase } from './retrieve-cases';
import { postRetrieve } from './retrieve-support';
import { startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
let relay: TestRelay;

beforeAll(async () => {
  site = await startFixtureSite();
  relay = await startTestRelay();
});
afterEach(async () => {
  await relay.services.sessions.closeAll();
});
afterAll(async () => {
  await relay?.close();
  await site?.close();
});

describe('retrieve fixture cases (ludicrous mode, exact data)', () => {
  it.each(RETRIEVE_CASES.map((c) => [c.name, c] as [string, RetrieveCase]))('%s', async (_, c) => {
    const res = await postRetrieve(relay, caseRequest(c, site.url));
    expect(res.data).toEqual(c.expected(site.url));
  });
});
