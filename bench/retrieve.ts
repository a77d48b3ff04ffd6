/**
 * Retrieve: ludicrous mode end to end through HTTP (new session + load + extract) on a 200-item local
 * page against raw Playwright (newContext + newPage + goto + page.content()) on the same page and the
 * same Chromium, interleaved; throughput with 10 parallel calls; field-level precision/recall of
 * ludicrous mode over the retrieve fixture pages. The end-to-end ratio is judged against its target
 * (PASS/FAIL in the table and in results.json).
 */
import { startFixtureSite } from '@tandem/e2e/fixtures';
import { startBenchRelay } from './relay';
import { percentile, printTable, round, saveResults } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PARALLEL = 10;
const ROUNDS = 5;

type Item = Record<string, unknown>;
interface Case {
  page: string;
  fields: string[];
  cmd?: string;
  extra?: Record<string, unknown>;
  expected: (origin: string) => Item[];
}

const NAVIGATION_TIMEOUT_MS = 120_000;
/** Target: ludicrous retrieve end to end at most 1.5× raw Playwright goto + page.content(), at p50. */
const RATIO_TARGET = 1.5;

const passFail = (ratio: number) => (ratio <= RATIO_TARGET ? 'PASS' : 'FAIL');

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);

/** Known answers for every retrieve fixture page. */
const CASES: Case[] = [
  {
    page: 'products',
    fields: ['name', 'price', 'image', 'link', 'rating'],
    expected: (o) =>
      [
        ['Trail Backpack 30L', 89.99, 'backpack', 'trail-backpack', 4.5],
        ['Compact Camp Stove', 34.5, 'stove', 'camp-stove', 4],
        ['LED Headlamp', 19, 'headlamp', 'headlamp', 3.5],
        ['Water Filter', 1249, 'filter', 'water-filter', 5],
        ['Down Sleeping Bag', 210, 'bag', 'sleeping-bag', 4.8],
        ['Trekking Poles (pair)', 59.95, 'poles', 'trekking-poles', 4.2],
      ].map(([name, price, img, slug, rating]) => ({
        name,
        price,
        image: `${o}/img/${img}.jpg`,
        link: `${o}/retrieve/item/${slug}`,
        rating,
      })),
  },
  {
    page: 'table',
    fields: ['city', 'country', 'population'],
    cmd: 'population as a number',
    expected: () =>
      [
        ['Stockholm', 'Sweden', 984748],
        ['Oslo', 'Norway', 709037],
        ['Helsinki', 'Finland', 664028],
        ['Copenhagen', 'Denmark', 653664],
        ['Gothenburg', 'Sweden', 604616],
      ].map(([city, country, population]) => ({ city, country, population })),
  },
  {
    page: 'search',
    fields: ['title', 'url', 'date'],
    cmd: 'date as ISO',
    expected: () => [
      { title: 'Best climbing shoes of 2026', url: 'https://shoes.example.com/guide', date: '2026-03-03' },
      { title: 'How should climbing shoes fit?', url: 'https://forum.example.org/t/sizing', date: '2026-01-12' },
      { title: 'Resoling climbing shoes: a guide', url: 'https://www.example.net/resole', date: '2025-11-30' },
      { title: 'Climbing shoe - Wiki', url: 'https://wiki.example.com/Climbing_shoe', date: '2025-08-08' },
    ],
  },
  {
    page: 'article',
    fields: ['title', 'author', 'date', 'site_name'],
    expected: () => [
      {
        title: 'Glaciers are retreating faster than expected',
        author: 'Ingrid Halvorsen',
        date: '2026-02-14T09:30:00Z',
        site_name: 'The Daily Fixture',
      },
    ],
  },
  {
    page: 'lazy',
    fields: ['title', 'url'],
    extra: { scroll_to_bottom: true },
    expected: (o) => range(50).map((n) => ({ title: `Post number ${n}`, url: `${o}/retrieve/post/${n}` })),
  },
  {
    page: 'lazy-busy',
    fields: ['title', 'url'],
    extra: { scroll_to_bottom: true },
    expected: (o) => range(25).map((n) => ({ title: `Post number ${n}`, url: `${o}/retrieve/post/${n}` })),
  },
  {
    page: 'viewport',
    fields: ['name', 'price'],
    extra: { full_page: false },
    expected: () => range(3).map((n) => ({ name: `Listing ${n}`, price: 100 + n })),
  },
  {
    page: 'microdata',
    fields: ['name', 'brand', 'price', 'currency', 'sku'],
    expected: () => [
      { name: 'Ceramic Mug', brand: 'Potter & Co', price: 12, currency: 'EUR', sku: 'MUG-1' },
      { name: 'Teapot', brand: 'Potter & Co', price: 39.5, currency: 'EUR', sku: 'POT-7' },
      { name: 'Saucer Set', brand: 'Kiln Works', price: 18.25, currency: 'EUR', sku: 'SAU-3' },
    ],
  },
  {
    page: 'jsonld',
    fields: ['name', 'date', 'location', 'price', 'currency'],
    expected: () => [
      {
        name: 'Spring Jazz Night',
        date: '2026-04-18T20:00:00+02:00',
        location: 'Fixture Hall',
        price: 250,
        currency: 'NOK',
      },
    ],
  },
  {
    page: 'api-explorer',
    fields: ['method', 'path', 'description'],
    expected: () =>
      [
        ['GET', '/pets', 'List all pets'],
        ['POST', '/pets', 'Create a pet'],
        ['GET', '/pets/{petId}', 'Info for a specific pet'],
        ['DELETE', '/pets/{petId}', 'Remove a pet'],
      ].map(([method, path, description]) => ({ method, path, description })),
  },
  ...[
    [1, 12, 0],
    [2, 12, 12],
    [3, 5, 24],
  ].map(
    ([p, count, offset]): Case => ({
      page: `page-${p}`,
      fields: ['title', 'author', 'price'],
      expected: () =>
        range(count as number, (offset as number) + 1).map((n) => ({
          title: `Book ${n}`,
          author: `Author ${n}`,
          price: n + 0.5,
        })),
    }),
  ),
  {
    page: 'catalog-200',
    fields: ['name', 'price', 'date', 'link'],
    expected: (o) =>
      range(200).map((i) => ({
        name: `Catalog item ${i}`,
        price: Math.round((((i * 7) % 300) + 0.99) * 100) / 100,
        date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
        link: `${o}/retrieve/catalog/${i}`,
      })),
  },
];

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 0.005;
  if (typeof a === 'string' && typeof b === 'string') return a.trim().toLowerCase() === b.trim().toLowerCase();
  return false;
}

/** Field-level counts, items matched by position: returned non-null, expected non-null, correct. */
function score(got: Item[], expected: Item[], fields: string[]): { returned: number; wanted: number; correct: number } {
  let returned = 0;
  let wanted = 0;
  let correct = 0;
  for (let i = 0; i < Math.max(got.length, expected.length); i++) {
    for (const f of fields) {
      const g = got[i]?.[f];
      const e = expected[i]?.[f];
      if (g !== null && g !== undefined) returned++;
      if (e !== null && e !== undefined) wanted++;
      if (g !== null && g !== undefined && same(g, e)) correct++;
    }
  }
  return { returned, wanted, correct };
}

export async function benchRetrieve(): Promise<void> {
  const site = await startFixtureSite();
  // Ten loads at once on two shared cores can take tens of seconds; both sides get the same long
  // navigation timeout so the benchmark measures, rather than fails, on a busy machine.
  const relay = await startBenchRelay({
    TANDEM_MAX_SESSIONS: 100,
    TANDEM_NAVIGATION_TIMEOUT_MS: NAVIGATION_TIMEOUT_MS,
  });
  const headers = relay.headers;
  const catalog = `${site.url}/retrieve/catalog-200.html`;
  const retrieve = async (body: Record<string, unknown>) =>
    (await relay.post('/v1/web/retrieve', { cmd: '', mode: 'ludicrous', ...body })) as {
      session_id: string;
      data: Item[];
    };
  const close = (id: string) => fetch(`${relay.url}/v1/web/session/${id}`, { method: 'DELETE', headers });

  try {
    const browser = await relay.services.browsers.get();
    const raw = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const tab = await context.newPage();
      await tab.goto(catalog, { timeout: NAVIGATION_TIMEOUT_MS });
      await tab.content();
      return context;
    };
    for (let i = 0; i < 3; i++) {
      await close((await retrieve({ url: catalog, max_items: 1000 })).session_id);
      await (await raw()).close();
    }
    const tandem: number[] = [];
    const playwright: number[] = [];
    let items = 0;
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      const res = await retrieve({ url: catalog, max_items: 1000 });
      tandem.push(performance.now() - t);
      items = res.data.length;
      await close(res.session_id);
      t = performance.now();
      const context = await raw();
      playwright.push(performance.now() - t);
      await context.close();
    }

    // The same 10-at-once load through raw Playwright, interleaved, as the baseline for throughput.
    const walls: number[] = [];
    const rawWalls: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      const results = await Promise.all(
        Array.from({ length: PARALLEL }, () => retrieve({ url: catalog, max_items: 1000 })),
      );
      walls.push(performance.now() - t);
      await Promise.all(results.map((res) => close(res.session_id)));
      t = performance.now();
      const contexts = await Promise.all(Array.from({ length: PARALLEL }, raw));
      rawWalls.push(performance.now() - t);
      await Promise.all(contexts.map((c) => c.close()));
    }
    const wall = percentile(walls, 50);
    const rawWall = percentile(rawWalls, 50);

    const accuracy: Record<string, unknown>[] = [];
    const total = { returned: 0, wanted: 0, correct: 0 };
    for (const c of CASES) {
      const res = await retrieve({
        url: `${site.url}/retrieve/${c.page}.html`,
        fields: c.fields,
        cmd: c.cmd ?? '',
        max_items: 1000,
        ...c.extra,
      });
      await close(res.session_id);
      const s = score(res.data, c.expected(site.url), c.fields);
      total.returned += s.returned;
      total.wanted += s.wanted;
      total.correct += s.correct;
      accuracy.push({
        page: c.page,
        items: `${res.data.length}/${c.expected(site.url).length}`,
        precision: round(s.correct / Math.max(1, s.returned), 3),
        recall: round(s.correct / Math.max(1, s.wanted), 3),
      });
    }
    const precision = total.correct / Math.max(1, total.returned);
    const recall = total.correct / Math.max(1, total.wanted);

    const figures = {
      runs: RUNS,
      page: 'retrieve/catalog-200.html',
      items,
      endToEndMs: {
        tandem: { p50: percentile(tandem, 50), p95: percentile(tandem, 95) },
        playwright: { p50: percentile(playwright, 50), p95: percentile(playwright, 95) },
      },
      ratioP50: percentile(tandem, 50) / percentile(playwright, 50),
      ratioP95: percentile(tandem, 95) / percentile(playwright, 95),
      target: RATIO_TARGET,
      // The target is judged at p50; p95 is reported beside it (one noisy run moves it on 2 cores).
      verdict: passFail(percentile(tandem, 50) / percentile(playwright, 50)),
      parallel: {
        calls: PARALLEL,
        rounds: ROUNDS,
        wallMsP50: wall,
        callsPerSecond: (PARALLEL * 1000) / wall,
        playwrightWallMsP50: rawWall,
        ratio: wall / rawWall,
      },
      accuracy: { precision, recall, pages: accuracy },
    };
    printTable(`Retrieve (ludicrous) on a 200-item page, warm (${RUNS} runs each, interleaved, same Chromium)`, [
      {
        path: 'Tandem POST /v1/web/retrieve (new session)',
        p50_ms: round(figures.endToEndMs.tandem.p50),
        p95_ms: round(figures.endToEndMs.tandem.p95),
        verdict: '',
      },
      {
        path: 'Playwright newContext+newPage+goto+content',
        p50_ms: round(figures.endToEndMs.playwright.p50),
        p95_ms: round(figures.endToEndMs.playwright.p95),
        verdict: '',
      },
      {
        path: `ratio (target <= ${RATIO_TARGET} at p50)`,
        p50_ms: round(figures.ratioP50, 2),
        p95_ms: round(figures.ratioP95, 2),
        verdict: figures.verdict,
      },
    ]);
    printTable(`Throughput: ${PARALLEL} calls at once (${ROUNDS} rounds, wall time p50)`, [
      { path: 'Tandem retrieve x10', wall_ms: round(wall), calls_per_s: round(figures.parallel.callsPerSecond, 1) },
      {
        path: 'Playwright goto+content x10',
        wall_ms: round(rawWall),
        calls_per_s: round((PARALLEL * 1000) / rawWall, 1),
      },
      { path: 'ratio', wall_ms: round(wall / rawWall, 2), calls_per_s: '' },
    ]);
    printTable('Ludicrous accuracy (field level, items by position)', [
      ...accuracy.map((a) => ({
        page: String(a.page),
        items: String(a.items),
        precision: Number(a.precision),
        recall: Number(a.recall),
      })),
      { page: 'all pages', items: '', precision: round(precision, 3), recall: round(recall, 3) },
    ]);
    saveResults('retrieve', figures);
  } finally {
    await relay.close();
    await site.close();
  }
}
