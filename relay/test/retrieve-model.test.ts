import {
  type FixtureSite,
  type ModelServer,
  type Reply,
  startFixtureSite,
  startModelServer,
} from '@tandem/e2e/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { items, pageIn, postRetrieve, type RetrieveBody, retrievePage } from './retrieve-support';
import { startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
let model: ModelServer;
let relay: TestRelay;

beforeAll(async () => {
  [site, model] = await Promise.all([
    startFixtureSite(),
    startModelServer({ models: ['fast-model', 'standard-model'] }),
  ]);
  relay = await startTestRelay({
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'sk-test',
    TANDEM_MODEL_FAST: 'fast-model',
    TANDEM_MODEL_STANDARD: 'standard-model',
    TANDEM_MODEL_MAX_RETRIES: 0,
  });
});
afterEach(async () => {
  await relay.services.sessions.closeAll();
  model.reset();
});
afterAll(async () => {
  await relay?.close();
  await Promise.all([site?.close(), model?.close()]);
});

const page = (name: string) => retrievePage(site, name);
const retrieve = (body: Record<string, unknown>): Promise<RetrieveBody> => postRetrieve(relay, body);

describe('fast and standard modes (scripted model)', () => {
  it('sends the page as Markdown with a strict schema built from fields, and returns the items', async () => {
    model.script((request) => {
      expect(pageIn(request)).toContain(`### [Trail Backpack 30L](${site.url}/retrieve/item/trail-backpack)`);
      expect(pageIn(request)).toContain('$89.99');
      return items([
        { name: 'Trail Backpack 30L', price: 89.99, link: '/retrieve/item/trail-backpack' },
        { name: 'Compact Camp Stove', price: 34.5 },
      ]);
    });
    const res = await retrieve({ url: page('products'), fields: ['name', 'price', 'link'], cmd: 'price as a number' });
    expect(res.data).toEqual([
      // Relative URLs come back absolute; missing fields are null.
      { name: 'Trail Backpack 30L', price: 89.99, link: `${site.url}/retrieve/item/trail-backpack` },
      { name: 'Compact Camp Stove', price: 34.5, link: null },
    ]);
    expect(res.status).toBe('DONE');
    expect(res.message).toMatch(/fast mode, model fast-model/);
    const body = model.requests[0]?.body;
    expect(body?.model).toBe('fast-model');
    const format = body?.response_format as {
      type: string;
      json_schema: { strict: boolean; schema: { properties: { items: { items: unknown } } } };
    };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.strict).toBe(true);
    const itemSchema = format.json_schema.schema.properties.items.items as {
      required: string[];
      properties: Record<string, unknown>;
    };
    expect(itemSchema.required).toEqual(['name', 'price', 'link']);
    expect(itemSchema.properties.price).toEqual({ type: ['number', 'null'] });
    expect(JSON.stringify(body?.messages)).toMatch(/never invent values/i);
  });

  it('standard mode uses the standard model', async () => {
    model.script(items([{ city: 'Stockholm' }]));
    const res = await retrieve({ url: page('table'), mode: 'standard', fields: ['city'] });
    expect(res.data).toEqual([{ city: 'Stockholm' }]);
    expect(model.requests[0]?.body?.model).toBe('standard-model');
    expect(pageIn(model.requests[0])).toContain('| City | Country | Population | Founded |');
  });

  it("meters its model tokens into the account's usage ledger, as no step", async () => {
    const account = (await relay.services.store.apiKeys.resolve(relay.key))!.accountId;
    const today = () => relay.services.store.usage.day(account, new Date().toISOString().slice(0, 10));
    const before = await today();
    model.script({
      kind: 'json',
      value: { items: [{ city: 'Stockholm' }] },
      usage: { prompt_tokens: 1234, completion_tokens: 56, cached_tokens: 7 },
    });
    await retrieve({ url: page('table'), mode: 'standard', fields: ['city'] });
    const after = await today();
    expect(after.promptTokens - before.promptTokens).toBe(1234);
    expect(after.completionTokens - before.completionTokens).toBe(56);
    expect(after.cachedTokens - before.cachedTokens).toBe(7);
    expect(after.steps).toBe(before.steps);
  });

  it('remembers per model that response_format is refused: the next retrieve asks in words at once', async () => {
    model.script(
      { kind: 'error', status: 400, message: 'response_format is not supported' },
      items([{ city: 'Oslo' }]),
    );
    await retrieve({ url: page('table'), mode: 'fast', fields: ['city'] });
    model.script(items([{ city: 'Oslo' }]), items([{ city: 'Oslo' }]));
    await retrieve({ url: page('table'), mode: 'fast', fields: ['city'] });
    await retrieve({ url: page('table'), mode: 'standard', fields: ['city'] });
    const asked = model.requests.map((r) => [
      r.body?.model,
      r.body?.response_format === undefined ? 'words' : 'schema',
    ]);
    expect(asked).toEqual([
      ['fast-model', 'schema'],
      ['fast-model', 'words'],
      ['fast-model', 'words'],
      ['standard-model', 'schema'],
    ]);
  });

  it('gives the model each fixture page with what it needs', async () => {
    const cases: { name: string; body: Record<string, unknown>; has: string[]; lacks?: string[] }[] = [
      {
        name: 'search',
        body: {},
        has: ['[Best climbing shoes of 2026](https://shoes.example.com/guide)', 'Mar 3, 2026'],
      },
      {
        name: 'article',
        body: {},
        has: ['# Glaciers are retreating faster than expected', 'og:site_name: The Daily Fixture', 'Ingrid Halvorsen'],
        lacks: ['[World]'],
      },
      { name: 'lazy', body: { scroll_to_bottom: true }, has: ['Post number 50'] },
      { name: 'viewport', body: { full_page: false }, has: ['Listing 3'], lacks: ['Listing 5'] },
      { name: 'jsonld', body: {}, has: ['"startDate":"2026-04-18T20:00:00+02:00"'] },
      { name: 'microdata', body: {}, has: ['"sku":["POT-7"]'] },
    ];
    for (const c of cases) {
      model.script(items([{ ok: c.name }]));
      const res = await retrieve({ url: page(c.name), ...c.body });
      expect(res.data).toEqual([{ ok: c.name }]);
      const sent = pageIn(model.requests.at(-1));
      for (const text of c.has) expect(sent, c.name).toContain(text);
      for (const text of c.lacks ?? []) expect(sent, c.name).not.toContain(text);
    }
  });

  it('chunks a long page with overlap, extracts the chunks in parallel and merges them in order without duplicates', async () => {
    // Every chunk answers with the books it shows; overlapping books appear in two chunks. The first
    // answer waits for a second request to arrive, which only happens when chunks go out in parallel.
    let parallel = false;
    const answer: Reply = async (request) => {
      const deadline = Date.now() + 10_000;
      while (model.requests.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      if (model.requests.length >= 2) parallel = true;
      const books = [...pageIn(request).matchAll(/\[Book (\d+)\]/g)].map((m) => ({ title: `Book ${m[1]}` }));
      return items(books);
    };
    model.script(...Array.from({ length: 20 }, () => answer));
    const res = await retrieve({
      url: page('page-1'),
      fields: ['title'],
      optional_params: { chunk_chars: 300, chunk_overlap: 120 },
    });
    const calls = model.requests.length;
    expect(calls).toBeGreaterThan(2);
    expect(res.message).toMatch(new RegExp(`${calls} chunks`));
    expect(res.data.map((i) => i.title)).toEqual(Array.from({ length: 12 }, (_, i) => `Book ${i + 1}`));
    expect(parallel).toBe(true);
    // Overlap: some book was sent in two chunks.
    const sentTwice = model.requests
      .map((r) => pageIn(r))
      .filter((p) => p.includes('[Book 3]') || p.includes('[Book 4]'));
    expect(sentTwice.length).toBeGreaterThanOrEqual(1);
  });

  it('fetches paginated pages in parallel with the model', async () => {
    const answer: Reply = (request) =>
      items([...pageIn(request).matchAll(/\[Book (\d+)\]/g)].map((m) => ({ title: `Book ${m[1]}` })));
    model.script(answer, answer, answer);
    const results = await Promise.all([1, 2, 3].map((n) => retrieve({ url: page(`page-${n}`), fields: ['title'] })));
    expect(results.map((r) => r.data.length)).toEqual([12, 12, 5]);
  });

  it('max_items applies to model items too', async () => {
    model.script(items([{ name: 'a' }, { name: 'b' }, { name: 'c' }]));
    const res = await retrieve({ url: page('products'), fields: ['name'], max_items: 2 });
    expect(res).toMatchObject({ status: 'CONTINUE', data: [{ name: 'a' }, { name: 'b' }] });
  });

  it('falls back to ludicrous with a note when the model fails', async () => {
    model.script({ kind: 'error', status: 500, message: 'model crashed' });
    const res = await retrieve({ url: page('products'), fields: ['name', 'price'] });
    expect(res.data).toHaveLength(6);
    expect(res.data[0]).toEqual({ name: 'Trail Backpack 30L', price: 89.99 });
    expect(res.message).toMatch(/The model failed .*model crashed.*ludicrous mode/);
  });

  it('falls back to ludicrous with a note when the model answers without JSON', async () => {
    model.script({ kind: 'content', content: 'Sorry, I cannot read this page.' });
    const res = await retrieve({ url: page('products'), fields: ['name', 'price'] });
    expect(res.data).toHaveLength(6);
    expect(res.data[5]).toEqual({ name: 'Trekking Poles (pair)', price: 59.95 });
    expect(res.message).toMatch(
      /The model failed \(its answer was unusable: the model answered without JSON\), so these items come from ludicrous mode/,
    );
  });

  it('falls back to ludicrous with a note when the endpoint answers with a body that is not JSON', async () => {
    model.script({ kind: 'garbage', text: '<html>Bad gateway</html>' });
    const res = await retrieve({ url: page('table'), fields: ['city'] });
    expect(res.data.map((i) => i.city)).toEqual(['Stockholm', 'Oslo', 'Helsinki', 'Copenhagen', 'Gothenburg']);
    expect(res.message).toMatch(/The model failed \(.*not JSON.*\), so these items come from ludicrous mode/);
  });

  it('max_items 0 never calls the model', async () => {
    const res = await retrieve({ url: page('products'), fields: ['name'], max_items: 0 });
    expect(res).toMatchObject({ status: 'CONTINUE', data: [] });
    expect(res.message).toMatch(/no model call for max_items 0/);
    expect(model.requests).toHaveLength(0);
  });

  it('keeps a path field as the model gave it while a link field becomes absolute', async () => {
    model.script(
      items([
        { method: 'GET', path: '/pets', link: '/docs/pets' },
        { method: 'GET', path: '/pets/{petId}', link: 'docs/pet.html' },
        { method: 'DELETE', path: '../pets/{petId}', link: null },
      ]),
    );
    const res = await retrieve({ url: page('api-explorer'), fields: ['method', 'path', 'link'] });
    expect(res.data).toEqual([
      { method: 'GET', path: '/pets', link: `${site.url}/docs/pets` },
      { method: 'GET', path: '/pets/{petId}', link: `${site.url}/retrieve/docs/pet.html` },
      { method: 'DELETE', path: '../pets/{petId}', link: null },
    ]);
  });

  it('merges an item that a chunk seam cut with its whole view from the next chunk', async () => {
    // Answers like a model reading only its chunk: a product whose price lies past the chunk's end
    // comes back without it; the next chunk repeats its heading (the overlap) and gives it whole.
    const partials: string[] = [];
    const answer: Reply = (request) => {
      const found: { name: string | null; link: string | null; price: number | null }[] = [];
      for (const block of pageIn(request).split(/\n{2,}/)) {
        const heading = /^#+ \[(.+?)\]\(https?:\/\/[^/]+(\/[^)]*)\)/.exec(block);
        const price = [...block.matchAll(/\$([\d,]+\.\d\d)/g)].at(-1)?.[1];
        if (heading) found.push({ name: heading[1] ?? null, link: heading[2] ?? null, price: null });
        else if (price) {
          const amount = Number(price.replace(/,/g, ''));
          const last = found.at(-1);
          if (last && last.price === null) last.price = amount;
          else found.push({ name: null, link: null, price: amount });
        }
      }
      for (const f of found) if (Object.values(f).includes(null)) partials.push(JSON.stringify(f));
      return items(found);
    };
    model.script(...Array.from({ length: 40 }, () => answer));
    const res = await retrieve({
      url: page('products'),
      fields: ['name', 'link', 'price'],
      optional_params: { chunk_chars: 300, chunk_overlap: 150 },
    });
    expect(model.requests.length).toBeGreaterThan(2);
    // The seams did cut products: some chunk answered a partly filled one.
    expect(partials.length).toBeGreaterThan(0);
    const item = (slug: string) => `${site.url}/retrieve/item/${slug}`;
    expect(res.data).toEqual([
      { name: 'Trail Backpack 30L', link: item('trail-backpack'), price: 89.99 },
      { name: 'Compact Camp Stove', link: item('camp-stove'), price: 34.5 },
      { name: 'LED Headlamp', link: item('headlamp'), price: 19 },
      { name: 'Water Filter', link: item('water-filter'), price: 1249 },
      { name: 'Down Sleeping Bag', link: item('sleeping-bag'), price: 210 },
      { name: 'Trekking Poles (pair)', link: item('trekking-poles'), price: 59.95 },
    ]);
  });

  it('ludicrous mode never calls the model', async () => {
    const res = await retrieve({ url: page('products'), mode: 'ludicrous' });
    expect(res.data).toHaveLength(6);
    expect(model.requests).toHaveLength(0);
  });
});

describe('schema in the prompt (TANDEM_MODEL_OUTPUT=prompt)', () => {
  let promptRelay: TestRelay;
  beforeAll(async () => {
    promptRelay = await startTestRelay({
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'sk-test',
      TANDEM_MODEL_FAST: 'fast-model',
      TANDEM_MODEL_MAX_RETRIES: 0,
      TANDEM_MODEL_OUTPUT: 'prompt',
    });
  });
  afterAll(async () => {
    await promptRelay?.close();
  });

  it('coerces the model’s values to the types the cmd asks for', async () => {
    model.script(
      items([
        { name: 'Trail Backpack 30L', price: '$89.99', rating: '4.5 out of 5' },
        { name: 'Water Filter', price: '$1,249.00', rating: null },
      ]),
    );
    const res = await promptRelay.api<RetrieveBody>('POST', '/v1/web/retrieve', {
      body: {
        cmd: 'Products with price as a number and rating as a number',
        url: page('products'),
        fields: ['name', 'price', 'rating'],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { name: 'Trail Backpack 30L', price: 89.99, rating: 4.5 },
      { name: 'Water Filter', price: 1249, rating: null },
    ]);
    const sent = model.requests[0]?.body;
    expect(sent?.response_format).toBeUndefined();
    expect(JSON.stringify(sent?.messages)).toContain('JSON schema of the answer');
    await promptRelay.services.sessions.closeAll();
  });
});
