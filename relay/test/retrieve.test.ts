import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postRetrieve, type RetrieveBody, retrievePage } from './retrieve-support';
import { closedPort, startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
let relay: TestRelay;

beforeAll(async () => {
  site = await startFixtureSite();
  // No model configured: fast/standard fall back to ludicrous.
  relay = await startTestRelay({ TANDEM_START_URL: `${site.url}/retrieve/table.html` });
});
afterEach(async () => {
  await relay.services.sessions.closeAll();
});
afterAll(async () => {
  await relay?.close();
  await site?.close();
});

const page = (name: string) => retrievePage(site, name);
const retrieve = (body: Record<string, unknown>, expected = 200): Promise<RetrieveBody> =>
  postRetrieve(relay, { mode: 'ludicrous', ...body }, expected);

describe('ludicrous mode', () => {
  it('reads a product grid: name, price as a number, image (lazy sources too), link, rating', async () => {
    const res = await retrieve({ url: page('products'), fields: ['name', 'price', 'image', 'link', 'rating'] });
    expect(res.status).toBe('DONE');
    expect(res.session_id).toMatch(/^ses_/);
    expect(res.url).toBe(page('products'));
    expect(res.data).toHaveLength(6);
    expect(res.data[0]).toEqual({
      name: 'Trail Backpack 30L',
      price: 89.99,
      image: `${site.url}/img/backpack.jpg`,
      link: `${site.url}/retrieve/item/trail-backpack`,
      rating: 4.5,
    });
    // data-src behind a placeholder, srcset only, sale price beside the old one, thousands separator.
    expect(res.data[1]).toMatchObject({ name: 'Compact Camp Stove', image: `${site.url}/img/stove.jpg`, rating: 4 });
    expect(res.data[2]).toMatchObject({ name: 'LED Headlamp', price: 19, image: `${site.url}/img/headlamp.jpg` });
    expect(res.data[3]).toMatchObject({ price: 1249, rating: 5 });
    expect(res.data.map((i) => i.name)).toEqual([
      'Trail Backpack 30L',
      'Compact Camp Stove',
      'LED Headlamp',
      'Water Filter',
      'Down Sleeping Bag',
      'Trekking Poles (pair)',
    ]);
  });

  it('chooses the columns itself without fields', async () => {
    const res = await retrieve({ url: page('products') });
    expect(Object.keys(res.data[0] ?? {})).toEqual(['name', 'url', 'image', 'price', 'currency', 'rating']);
    expect(res.data[5]).toEqual({
      name: 'Trekking Poles (pair)',
      url: `${site.url}/retrieve/item/trekking-poles`,
      image: `${site.url}/img/poles.jpg`,
      price: 59.95,
      currency: 'USD',
      rating: 4.2,
    });
  });

  it('maps a table to items by header, with types from the cmd', async () => {
    const all = await retrieve({ url: page('table') });
    expect(all.data).toHaveLength(5);
    expect(all.data[0]).toEqual({
      city: 'Stockholm',
      url: `${site.url}/wiki/Stockholm`,
      country: 'Sweden',
      population: '984,748',
      founded: '1252',
    });
    const typed = await retrieve({
      url: page('table'),
      cmd: 'Cities with population as a number',
      fields: ['city', 'population', 'link'],
    });
    expect(typed.data[3]).toEqual({ city: 'Copenhagen', population: 653664, link: `${site.url}/wiki/Copenhagen` });
  });

  it('reads search results with ISO dates', async () => {
    const res = await retrieve({
      url: page('search'),
      fields: ['title', 'url', 'date', 'snippet'],
      cmd: 'date as ISO',
    });
    expect(res.data).toHaveLength(4);
    expect(res.data[0]).toEqual({
      title: 'Best climbing shoes of 2026',
      url: 'https://shoes.example.com/guide',
      date: '2026-03-03',
      snippet: 'Mar 3, 2026 — We tested 40 pairs of climbing shoes on rock and plastic.',
    });
    expect(res.data.map((i) => i.date)).toEqual(['2026-03-03', '2026-01-12', '2025-11-30', '2025-08-08']);
  });

  it('gives an article page one item from metadata, headline, byline and main text', async () => {
    const res = await retrieve({ url: page('article'), fields: ['title', 'author', 'date', 'body'] });
    expect(res.data).toHaveLength(1);
    const [item] = res.data;
    expect(item).toMatchObject({
      title: 'Glaciers are retreating faster than expected',
      author: 'Ingrid Halvorsen',
      date: '2026-02-14T09:30:00Z',
    });
    expect(item?.body).toMatch(/^Satellite measurements published on Friday/);
    expect(item?.body).toMatch(/extend the survey to Scandinavia next summer\.$/);
    expect(item?.body).not.toMatch(/Most read|Story A/);

    const auto = await retrieve({ url: page('article') });
    expect(auto.data[0]).toMatchObject({ site_name: 'The Daily Fixture', published: '2026-02-14T09:30:00Z' });
  });

  it('completes a lazy-loaded list only with scroll_to_bottom', async () => {
    const first = await retrieve({ url: page('lazy') });
    expect(first.data).toHaveLength(10);
    const scrolled = await retrieve({ url: page('lazy'), scroll_to_bottom: true });
    expect(scrolled.data).toHaveLength(50);
    expect(scrolled.data[49]).toMatchObject({ name: 'Post number 50', url: `${site.url}/retrieve/post/50` });
  });

  it('scroll_to_bottom gets past a loader that ignores scrolls while it is busy', async () => {
    const scrolled = await retrieve({ url: page('lazy-busy'), scroll_to_bottom: true });
    expect(scrolled.data).toHaveLength(25);
    expect(scrolled.data[24]).toMatchObject({ name: 'Post number 25' });
  });

  it('full_page: false keeps only what the viewport shows', async () => {
    const full = await retrieve({ url: page('viewport'), fields: ['name', 'price'] });
    expect(full.data).toHaveLength(20);
    const viewport = await retrieve({ url: page('viewport'), fields: ['name', 'price'], full_page: false });
    expect(viewport.data.map((i) => i.name)).toEqual(['Listing 1', 'Listing 2', 'Listing 3']);
    expect(viewport.data[0]).toEqual({ name: 'Listing 1', price: 101 });
    // A smaller screen shows two records; the list's shape is still recognised from the whole page.
    const small = await relay.api<{ session_id: string }>('POST', '/v1/web/session', {
      body: { url: page('viewport'), browser_params: { width: 800, height: 500 } },
    });
    const two = await retrieve({ session_id: small.body.session_id, fields: ['name'], full_page: false });
    expect(two.data).toEqual([{ name: 'Listing 1' }, { name: 'Listing 2' }]);
  });

  it('reads microdata itemprops and JSON-LD', async () => {
    const micro = await retrieve({ url: page('microdata'), fields: ['name', 'brand', 'price', 'currency', 'sku'] });
    expect(micro.data).toEqual([
      { name: 'Ceramic Mug', brand: 'Potter & Co', price: 12, currency: 'EUR', sku: 'MUG-1' },
      { name: 'Teapot', brand: 'Potter & Co', price: 39.5, currency: 'EUR', sku: 'POT-7' },
      { name: 'Saucer Set', brand: 'Kiln Works', price: 18.25, currency: 'EUR', sku: 'SAU-3' },
    ]);
    const ld = await retrieve({ url: page('jsonld'), fields: ['name', 'date', 'location', 'price', 'currency'] });
    expect(ld.data).toEqual([
      {
        name: 'Spring Jazz Night',
        date: '2026-04-18T20:00:00+02:00',
        location: 'Fixture Hall',
        price: 250,
        currency: 'NOK',
      },
    ]);
  });

  it('fills prices and SKUs that a list page keeps only in a JSON-LD ItemList', async () => {
    const res = await retrieve({ url: page('jsonld-list'), fields: ['name', 'price', 'currency', 'sku', 'link'] });
    const item = (slug: string) => `${site.url}/retrieve/item/${slug}`;
    expect(res.data).toEqual([
      // Matched by URL.
      { name: 'Ridge Tent 2P', price: 249, currency: 'EUR', sku: 'TNT-2P', link: item('ridge-tent') },
      { name: 'Dome Tent 3P', price: 319.5, currency: 'EUR', sku: 'TNT-3P', link: item('dome-tent') },
      // Matched by name: the ListItem names it, or its Product does, and neither gives a URL.
      { name: 'Tunnel Tent 4P', price: 489, currency: 'EUR', sku: 'TNT-4P', link: item('tunnel-tent') },
      { name: 'Bivy Shelter', price: 129.95, currency: 'EUR', sku: 'BVY-1', link: item('bivy') },
    ]);
    const auto = await retrieve({ url: page('jsonld-list') });
    expect(auto.data[1]).toMatchObject({ name: 'Dome Tent 3P', url: item('dome-tent'), price: 319.5, sku: 'TNT-3P' });
  });

  it('reads an article with no meta tags from its visible headline and byline, date included', async () => {
    const res = await retrieve({ url: page('article-plain'), fields: ['title', 'author', 'date', 'body'] });
    expect(res.data).toHaveLength(1);
    const [item] = res.data;
    expect(item).toMatchObject({
      title: 'Night trains are coming back to the north',
      author: 'Astrid Lindqvist',
      date: '2026-03-03',
    });
    expect(item?.body).toMatch(/^Three new sleeper services/);
    expect(item?.body).toMatch(/who would otherwise fly\.$/);
    expect(item?.body).not.toMatch(/By Astrid|Front page|since 1998/);
  });

  it('reads an author that JSON-LD gives as a Person object', async () => {
    const res = await retrieve({ url: page('article-ld-person'), fields: ['title', 'author', 'date', 'publisher'] });
    expect(res.data).toEqual([
      {
        title: 'Reindeer herders adapt to warmer winters',
        author: 'Nils Aslak Sara',
        date: '2026-01-20T07:15:00+01:00',
        publisher: 'Fixture Herald',
      },
    ]);
    const auto = await retrieve({ url: page('article-ld-person') });
    expect(auto.data[0]).toMatchObject({
      title: 'Reindeer herders adapt to warmer winters',
      author: 'Nils Aslak Sara',
    });
  });

  it('fetches paginated pages in parallel, each in its own session on the one Chromium', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((n) => retrieve({ url: page(`page-${n}`), fields: ['title', 'author', 'price'] })),
    );
    expect(results.map((r) => r.data.length)).toEqual([12, 12, 5]);
    const titles = results.flatMap((r) => r.data.map((i) => i.title));
    expect(titles).toEqual(Array.from({ length: 29 }, (_, i) => `Book ${i + 1}`));
    expect(results[2]?.data[4]).toEqual({ title: 'Book 29', author: 'Author 29', price: 29.5 });
    expect(new Set(results.map((r) => r.session_id)).size).toBe(3);
  });

  it('reads content that a page wraps in buttons, but not the captions of ordinary buttons', async () => {
    const res = await retrieve({ url: page('api-explorer'), fields: ['method', 'path', 'description'] });
    expect(res.data).toEqual([
      { method: 'GET', path: '/pets', description: 'List all pets' },
      { method: 'POST', path: '/pets', description: 'Create a pet' },
      { method: 'GET', path: '/pets/{petId}', description: 'Info for a specific pet' },
      { method: 'DELETE', path: '/pets/{petId}', description: 'Remove a pet' },
    ]);
    const markdown = await retrieve({ url: page('api-explorer'), format: 'markdown' });
    expect(markdown.message).toContain('Info for a specific pet');
    expect(markdown.message).not.toContain('Authorize');
    expect(markdown.message).not.toContain('Back to top');
  });

  it('includes ARIA labels and script-rendered content with render_js', async () => {
    const res = await retrieve({ url: page('rendered'), render_js: true, format: 'markdown' });
    expect(res.message).toContain('Item loaded over the network');
    expect(res.message).toContain(`[Shopping cart](${site.url}/cart)`);
    const plain = await retrieve({ url: page('rendered'), format: 'markdown' });
    expect(plain.message).not.toContain('Shopping cart');
  });
});

describe('max_items, format and screenshots', () => {
  it('max_items cuts the items with CONTINUE; DONE when all fit', async () => {
    const cut = await retrieve({ url: page('products'), max_items: 4 });
    expect(cut.status).toBe('CONTINUE');
    expect(cut.data).toHaveLength(4);
    expect(cut.message).toMatch(/4 items of 6/);
    const all = await retrieve({ url: page('products'), max_items: 6 });
    expect(all.status).toBe('DONE');
    expect(all.data).toHaveLength(6);
  });

  it('format markdown with fields puts a table of the items in message; data still holds them', async () => {
    const res = await retrieve({ url: page('products'), fields: ['name', 'price'], format: 'markdown' });
    expect(res.message.split('\n').slice(0, 3)).toEqual([
      '| name | price |',
      '| --- | --- |',
      '| Trail Backpack 30L | 89.99 |',
    ]);
    expect(res.data).toHaveLength(6);
  });

  it('format markdown without fields gives the main content, not the navigation around it', async () => {
    const res = await retrieve({ url: page('article'), format: 'markdown' });
    expect(res.message).toMatch(/^# Glaciers are retreating faster than expected/);
    expect(res.message).toContain('## What comes next');
    expect(res.message).not.toContain('Most read');
    const table = await retrieve({ url: page('table'), format: 'markdown' });
    expect(table.message).toContain('| City | Country | Population | Founded |');
    expect(table.message).toContain(`| [Stockholm](${site.url}/wiki/Stockholm) | Sweden | 984,748 | 1252 |`);
  });

  it('format markdown falls back to the whole body when the main region would lose list data', async () => {
    const res = await retrieve({ url: page('deals'), format: 'markdown' });
    expect(res.message).toContain("# Today's deals");
    expect(res.message).toContain('- Kayak paddle — $49\n- Dry bag 20L — $19\n- Spray skirt — $65');
  });

  it('include_screenshot returns a screenshot URL that serves a PNG', async () => {
    const res = await retrieve({ url: page('table'), include_screenshot: true });
    expect(res.screenshot).toMatch(/\/v1\/web\/screenshots\/[A-Za-z0-9_-]+\.png$/);
    const png = await fetch(res.screenshot as string);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
  });
});

describe('hostile pages', () => {
  it('retrieves the real content of a page that patches builtins', async () => {
    const res = await retrieve({ url: `${site.url}/hostile.html`, format: 'markdown' });
    expect(res.status).toBe('DONE');
    expect(res.message).toMatch(/^# Patched builtins\n/);
    expect(res.message).toContain('This page replaces JavaScript and DOM builtins after it loads');
    expect(res.message).toContain('- First result\n- Second result');
    expect(res.message).toContain('Nothing yet');
    const json = await retrieve({ url: `${site.url}/hostile.html`, fields: ['title', 'text'] });
    expect(json.data).toHaveLength(1);
    // The document's <title>, as for any page (metadata first, then <title>, then the <h1>).
    expect(json.data[0]?.title).toBe('Hostile page');
    expect(json.data[0]?.text).toMatch(/^This page replaces JavaScript and DOM builtins/);
  });
});

describe('sessions', () => {
  it('runs inside an existing session on its current page, then on url when given', async () => {
    const created = await relay.api<{ session_id: string }>('POST', '/v1/web/session', {
      body: { url: page('table') },
    });
    const id = created.body.session_id;
    const here = await retrieve({ session_id: id, fields: ['city'] });
    expect(here.session_id).toBe(id);
    expect(here.data[0]).toEqual({ city: 'Stockholm' });
    const there = await retrieve({ session_id: id, url: page('products'), fields: ['name'] });
    expect(there).toMatchObject({ session_id: id, url: page('products') });
    expect(there.data).toHaveLength(6);
    const list = await relay.api<{ session_ids: string[] }>('GET', '/v1/web/sessions');
    expect(list.body.session_ids).toEqual([id]);
  });

  it('without session_id creates a session that stays open for later calls', async () => {
    const res = await retrieve({});
    expect(res.url).toBe(page('table'));
    const again = await retrieve({ session_id: res.session_id, url: page('search') });
    expect(again.data).toHaveLength(4);
  });
});

describe('errors and fallbacks', () => {
  it('fast mode with no model configured falls back to ludicrous and says so', async () => {
    const res = await retrieve({ url: page('products'), mode: 'fast', fields: ['name'] });
    expect(res.data).toHaveLength(6);
    expect(res.message).toMatch(/No model is configured .* fell back to ludicrous mode/);
  });

  it('standard mode with no model configured falls back to ludicrous and says so', async () => {
    const res = await retrieve({ url: page('table'), mode: 'standard', fields: ['city', 'country'] });
    expect(res.data).toHaveLength(5);
    expect(res.data[0]).toEqual({ city: 'Stockholm', country: 'Sweden' });
    expect(res.message).toMatch(/No model is configured .* so standard mode fell back to ludicrous mode/);
  });

  it('answers 422 for an unknown format or mode', async () => {
    const res = await relay.api<{ detail: { loc: string[]; type: string }[] }>('POST', '/v1/web/retrieve', {
      body: { cmd: '', url: page('table'), format: 'xml' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]?.loc).toEqual(['body', 'format']);
    const mode = await relay.api('POST', '/v1/web/retrieve', { body: { cmd: '', mode: 'turbo' } });
    expect(mode.status).toBe(422);
  });

  it('says clearly when the URL cannot be reached, and leaves no session behind', async () => {
    const port = await closedPort();
    const res = await relay.api<{ message: string }>('POST', '/v1/web/retrieve', {
      body: { cmd: '', url: `http://127.0.0.1:${port}/nothing`, mode: 'ludicrous' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Could not open http:\/\/127\.0\.0\.1:\d+\/nothing: the connection was refused/);
    const list = await relay.api<{ session_ids: string[] }>('GET', '/v1/web/sessions');
    expect(list.body.session_ids).toEqual([]);
  });

  it('answers 400 for local: true and 404 for an unknown session', async () => {
    const local = await relay.api<{ message: string }>('POST', '/v1/web/retrieve', { body: { cmd: '', local: true } });
    expect(local.status).toBe(400);
    expect(local.body.message).toMatch(/extension/);
    const gone = await relay.api('POST', '/v1/web/retrieve', {
      body: { cmd: '', session_id: 'ses_n0_AAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(gone.status).toBe(404);
  });
});
