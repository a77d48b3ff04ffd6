/**
 * Retrieve fixture cases: a page of the fixture site, the request, and the exact `data` ludicrous
 * mode returns. The retrieve tests assert them, the eval harness's fixture suite scores them, and
 * the benchmark measures precision and recall over them.
 */

export type Item = Record<string, unknown>;

export interface RetrieveCase {
  /** A name for tables and --tasks. */
  name: string;
  /** Page under /retrieve/ on the fixture site, without ".html". */
  page: string;
  fields?: string[];
  cmd?: string;
  extra?: Record<string, unknown>;
  /** The items, given the fixture site's origin. */
  expected: (origin: string) => Item[];
}

/** The POST /v1/web/retrieve body of a case on the fixture site at `origin` (ludicrous, every item). */
export function caseRequest(c: RetrieveCase, origin: string): Record<string, unknown> {
  return {
    url: `${origin}/retrieve/${c.page}.html`,
    cmd: c.cmd ?? '',
    mode: 'ludicrous',
    max_items: 1000,
    ...(c.fields ? { fields: c.fields } : {}),
    ...c.extra,
  };
}

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);

/** Known answers for the retrieve fixture pages: the exact `data` ludicrous mode must return. */
export const RETRIEVE_CASES: RetrieveCase[] = [
  {
    name: 'products',
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
    name: 'table',
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
    name: 'search',
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
    name: 'article',
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
    name: 'lazy',
    page: 'lazy',
    fields: ['title', 'url'],
    extra: { scroll_to_bottom: true },
    expected: (o) => range(50).map((n) => ({ title: `Post number ${n}`, url: `${o}/retrieve/post/${n}` })),
  },
  {
    name: 'lazy-busy',
    page: 'lazy-busy',
    fields: ['title', 'url'],
    extra: { scroll_to_bottom: true },
    expected: (o) => range(25).map((n) => ({ title: `Post number ${n}`, url: `${o}/retrieve/post/${n}` })),
  },
  {
    name: 'viewport',
    page: 'viewport',
    fields: ['name', 'price'],
    extra: { full_page: false },
    expected: () => range(3).map((n) => ({ name: `Listing ${n}`, price: 100 + n })),
  },
  {
    name: 'microdata',
    page: 'microdata',
    fields: ['name', 'brand', 'price', 'currency', 'sku'],
    expected: () => [
      { name: 'Ceramic Mug', brand: 'Potter & Co', price: 12, currency: 'EUR', sku: 'MUG-1' },
      { name: 'Teapot', brand: 'Potter & Co', price: 39.5, currency: 'EUR', sku: 'POT-7' },
      { name: 'Saucer Set', brand: 'Kiln Works', price: 18.25, currency: 'EUR', sku: 'SAU-3' },
    ],
  },
  {
    name: 'jsonld',
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
    name: 'api-explorer',
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
    ([p, count, offset]): RetrieveCase => ({
      name: `page-${p}`,
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
    name: 'catalog-200',
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
  // Collection shapes: plain lists, definition lists, records over several rows, td headers, two lists on a page.
  {
    name: 'plain-list',
    page: 'plain-list',
    fields: ['name'],
    expected: () =>
      ['Mercury', 'Venus', 'Earth', 'Mars', 'Jupiter', 'Saturn', 'Uranus', 'Neptune'].map((name) => ({ name })),
  },
  {
    name: 'plain-list, auto columns',
    page: 'plain-list',
    expected: () =>
      ['Mercury', 'Venus', 'Earth', 'Mars', 'Jupiter', 'Saturn', 'Uranus', 'Neptune'].map((name) => ({ name })),
  },
  {
    name: 'plain-list, the list the cmd names',
    page: 'plain-list',
    cmd: 'the dwarf planets',
    fields: ['name', 'url'],
    expected: (o) =>
      ['Ceres', 'Pluto', 'Eris'].map((name) => ({ name, url: `${o}/retrieve/dwarf/${name.toLowerCase()}` })),
  },
  {
    name: 'glossary (dl)',
    page: 'glossary',
    fields: ['term', 'definition'],
    expected: () => [
      { term: 'HTML', definition: 'The markup language of web pages.' },
      { term: 'CSS', definition: 'Style sheets that say how a page looks.' },
      { term: 'DOM', definition: 'The tree of objects a browser builds from a page.' },
      { term: 'URL', definition: 'The address of a resource on the web.' },
      { term: 'HTTP', definition: 'The protocol browsers and servers speak.' },
    ],
  },
  {
    name: 'news (records over three rows)',
    page: 'news',
    fields: ['title', 'url', 'score', 'user', 'date', 'comments'],
    expected: (o) =>
      [
        [
          'Show HN: A tiny SQL engine in 500 lines',
          'https://github.com/ada/tinysql',
          312,
          'ada',
          '2026-03-01T08:00:00',
          120,
        ],
        ['The history of the tidal mill', 'https://mills.example.org/history', 145, 'grace', '2026-03-01T07:12:00', 38],
        ['Ask HN: How do you keep notes?', `${o}/retrieve/item?id=4003`, 98, 'linus', '2026-03-01T06:40:00', 211],
        [
          'Why we moved back to a monolith',
          'https://blog.example.com/monolith',
          77,
          'margaret',
          '2026-03-01T05:05:00',
          64,
        ],
        ['A field guide to lichens', 'https://lichens.example.net/guide', 51, 'barbara', '2026-03-01T04:30:00', 9],
      ].map(([title, url, score, user, date, comments]) => ({
        title,
        url,
        score,
        user,
        date,
        comments: `${comments} comments`,
      })),
  },
  {
    name: 'td-header-table',
    page: 'td-header-table',
    expected: () => [
      { name: 'Ingrid Berg', role: 'Chair', member_since: '2011', email: 'ingrid@club.example' },
      { name: 'Jonas Lie', role: 'Treasurer', member_since: '2015', email: 'jonas@club.example' },
      { name: 'Sofie Dahl', role: 'Secretary', member_since: '2019', email: 'sofie@club.example' },
      { name: 'Per Holm', role: 'Member', member_since: '2022', email: null },
    ],
  },
  {
    name: 'td-header-table, fields',
    page: 'td-header-table',
    fields: ['name', 'member since'],
    expected: () => [
      { name: 'Ingrid Berg', 'member since': '2011' },
      { name: 'Jonas Lie', 'member since': '2015' },
      { name: 'Sofie Dahl', 'member since': '2019' },
      { name: 'Per Holm', 'member since': '2022' },
    ],
  },
  {
    name: 'two collections, the table the cmd names',
    page: 'two-collections',
    cmd: 'the membership price table',
    expected: () => [
      { plan: 'Reader', price: 9, books_per_month: '1' },
      { plan: 'Bookworm', price: 19, books_per_month: '3' },
      { plan: 'Library', price: 39, books_per_month: '8' },
    ],
  },
  {
    name: 'two collections, the cards the cmd names',
    page: 'two-collections',
    cmd: 'new books',
    fields: ['title', 'author', 'price'],
    expected: () => [
      { title: 'Salt and Stone', author: 'Kari Moe', price: 18 },
      { title: 'The Long North', author: 'Eirik Vold', price: 22.5 },
      { title: 'Harbour Lights', author: 'Liv Aasen', price: 15.9 },
      { title: 'Winter Roads', author: 'Nils Brekke', price: 19 },
    ],
  },
  {
    name: 'two collections, the one the fields fit',
    page: 'two-collections',
    fields: ['plan', 'price'],
    expected: () => [
      { plan: 'Reader', price: 9 },
      { plan: 'Bookworm', price: 19 },
      { plan: 'Library', price: 39 },
    ],
  },
  {
    name: "two collections, a row's name is its first column",
    page: 'two-collections',
    cmd: 'the price table',
    fields: ['name', 'price'],
    expected: () => [
      { name: 'Reader', price: 9 },
      { name: 'Bookworm', price: 19 },
      { name: 'Library', price: 39 },
    ],
  },
  {
    name: 'events (labelled values, no links)',
    page: 'events',
    fields: ['name', 'date', 'venue'],
    expected: () => [
      { name: 'Spring Jazz Night', date: '2026-04-18', venue: 'Fixture Hall' },
      { name: 'Choir by Candlelight', date: '2026-05-02', venue: 'Old Church' },
      { name: 'Folk on the Pier', date: '2026-05-23', venue: 'Harbour Stage' },
    ],
  },
  {
    name: 'td header row set apart only by its look',
    page: 'race-results',
    expected: () =>
      [
        ['Ana Lopez', 'Harriers', '31:02', '34'],
        ['Ben Fry', 'Striders', '32:15', '41'],
        ['Cai Wen', 'Harriers', '33:40', '29'],
        ['Dee Oak', 'Pacers', '35:01', '52'],
      ].map(([runner, club, time, age]) => ({ runner, club, time, age })),
  },
  {
    name: 'plain ordered list, a field that names no part',
    page: 'repotting',
    cmd: 'the steps',
    fields: ['step'],
    expected: () =>
      [
        'Water the plant a day before.',
        'Pick a pot one size larger.',
        'Loosen the root ball gently.',
        'Add fresh soil around the roots.',
        'Water again and keep out of direct sun.',
      ].map((step) => ({ step })),
  },
  {
    name: 'a sidebar list the cmd names',
    page: 'tea-shop',
    cmd: 'the categories in the sidebar',
    fields: ['name', 'url'],
    expected: (o) =>
      ['tea', 'coffee', 'cocoa', 'mugs'].map((c) => ({
        name: c[0]?.toUpperCase() + c.slice(1),
        url: `${o}/retrieve/c/${c}`,
      })),
  },
  {
    name: 'the hours table the cmd names, not the cards or the sidebar',
    page: 'tea-shop',
    cmd: 'opening hours',
    fields: ['day', 'opens', 'closes'],
    expected: () => [
      { day: 'Monday', opens: '09:00', closes: '17:00' },
      { day: 'Tuesday', opens: '09:00', closes: '17:00' },
      { day: 'Saturday', opens: '10:00', closes: '14:00' },
    ],
  },
  {
    name: 'the cards the fields fit, prices as numbers',
    page: 'tea-shop',
    fields: ['name', 'price'],
    expected: () => [
      { name: 'Green tea', price: 4.5 },
      { name: 'Dark roast', price: 7 },
      { name: 'Hot cocoa', price: 5.25 },
    ],
  },
  {
    name: 'plain links list: author after "by", the count that names a field',
    page: 'top-links',
    cmd: 'the top links',
    fields: ['title', 'url', 'author', 'comments'],
    expected: () =>
      [
        ['A new compiler', 1, 'jane', 31],
        ['Why caches matter', 2, 'omar', 8],
        ['Ten years of Rust', 3, 'li', 102],
      ].map(([title, n, author, comments]) => ({
        title,
        url: `https://x.example/${n}`,
        author,
        comments: `${comments} comments`,
      })),
  },
  {
    name: 'plain list items: a bold lead-in names each, labelled values as shown',
    page: 'top-links',
    cmd: 'the rooms',
    fields: ['name', 'capacity', 'floor'],
    expected: () =>
      [
        ['Blue room', '12', '2'],
        ['Red room', '30', '1'],
        ['Green room', '6', '3'],
      ].map(([name, capacity, floor]) => ({ name, capacity, floor })),
  },
];
