/**
 * The harness end to end on corpora of its own format (eval/testdata): a real relay, real Chromium,
 * the task pages served and scored as the public corpora are.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOptions } from './cli';
import { type RelayClient, startLocalRelay } from './relay';
import { articleSuite, fixtureSuite, miniwobSuite } from './suites';

const testdata = (path: string) => fileURLToPath(new URL(`./testdata/${path}`, import.meta.url));

let relay: RelayClient;

beforeAll(async () => {
  process.env.TANDEM_PLANNER = 'builtin';
  relay = await startLocalRelay({ maxSessions: 4 });
});
afterAll(async () => {
  await relay?.close();
});

describe('npm run eval', () => {
  it('plays MiniWoB-format episodes with the page instruction, seeded, and reads the reward', async () => {
    const options = parseOptions(['--miniwob', testdata('miniwob'), '--seeds', '1-3']);
    const first = await miniwobSuite(relay, options.miniwob!, options, new Set());
    const again = await miniwobSuite(relay, testdata('miniwob/miniwob'), { ...options, seeds: ['2'] }, new Set());

    const press = first.episodes.filter((e) => e.task === 'press-a-button');
    expect(press.map((e) => [e.success, e.reward])).toEqual([
      [true, 1],
      [true, 1],
      [true, 1],
    ]);
    expect(press[0]?.instruction).toMatch(/^Click on the "\w+" button\.$/);
    // The same seed gives the same episode.
    expect(again.episodes.find((e) => e.task === 'press-a-button')?.instruction).toBe(press[1]?.instruction);

    const draw = first.episodes.filter((e) => e.task === 'draw-a-circle');
    expect(draw.every((e) => !e.success && e.reward === null && e.reason === 'episode not finished')).toBe(true);
    expect(first.tasks['press-a-button']).toMatchObject({ runs: 3, success: 3, successRate: 1 });
    expect(first.summary).toMatchObject({ runs: 6, success: 3, successRate: 0.5 });
  });

  it('scores article pages served without scripts or off-machine loads, skipping pages that are not articles', async () => {
    const options = parseOptions(['--articles', testdata('articles')]);
    const result = await articleSuite(relay, options.articles!, options, new Set());
    expect(result.skipped).toEqual(['not-an-article']);
    const [page] = result.pages;
    expect(page?.error).toBeUndefined();
    expect(page?.title).toMatchObject({ ok: true, got: 'Tidal mills of the northern coast' });
    expect(page?.byline.ok).toBe(true);
    // The page's script would add a paragraph of 85 words had it run (F1 below 0.6).
    expect(page?.f1).toBeGreaterThan(0.8);
    expect(result.summary).toMatchObject({ pages: 1, titleAccuracy: 1, bylineAccuracy: 1, errors: 0 });
  });

  it('runs the project fixture tasks it is asked for', async () => {
    const options = parseOptions(['--fixtures', '--tasks', 'follows a link named in quotes']);
    const matched = new Set<string>();
    const result = await fixtureSuite(relay, options, matched);
    expect(result.tasks.map((t) => [t.task, t.success])).toEqual([['follows a link named in quotes', true]]);
    expect(matched).toEqual(new Set(['follows a link named in quotes']));
  });
});
