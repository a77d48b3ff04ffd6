import type { FixtureSite, RecordedRequest, Reply } from '@tandem/e2e/fixtures';
import { expect } from 'vitest';
import type { TestRelay } from './support';

/** A retrieve response as the tests read it. */
export type RetrieveBody = {
  message: string;
  status: string;
  url: string;
  data: Record<string, unknown>[];
  session_id: string;
  screenshot?: string;
};

/** A page of the retrieve fixtures. */
export const retrievePage = (site: FixtureSite, name: string) => `${site.url}/retrieve/${name}.html`;

/** POSTs a retrieve (cmd defaults to "") and checks the status. */
export async function postRetrieve(
  relay: TestRelay,
  body: Record<string, unknown>,
  expected = 200,
): Promise<RetrieveBody> {
  const res = await relay.api<RetrieveBody>('POST', '/v1/web/retrieve', { body: { cmd: '', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(expected);
  return res.body;
}

/** A scripted model answer holding these items. */
export const items = (value: unknown[]): Reply => ({ kind: 'json', value: { items: value } });

/** The page Markdown the model was given in one request. */
export function pageIn(request: RecordedRequest | undefined): string {
  const user = request?.body?.messages?.find((m) => m.role === 'user')?.content;
  const text = typeof user === 'string' ? user : '';
  return text.slice(text.indexOf('--- page ---'));
}
