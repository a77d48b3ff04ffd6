import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byName, type Harness, hasName, snapshot, startHarness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('snapshot: stable indices and new elements', () => {
  it('keeps the same index for the same element across snapshots', async () => {
    const page = await h.open('/cards.html');
    const first = await snapshot(page, { full_page: true });
    await page.click('text=Add Bolt Drill to cart');
    const second = await snapshot(page, { full_page: true });
    expect(second.elements.map((e) => [e.index, e.name])).toEqual(first.elements.map((e) => [e.index, e.name]));
  });

  it('keeps indices when an element leaves the viewport and comes back', async () => {
    const page = await h.open('/long.html');
    const top = await snapshot(page);
    const jump = byName(top, 'Jump to the last section');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.evaluate(() => window.scrollTo(0, 0));
    const again = await snapshot(page);
    expect(byName(again, 'Jump to the last section').index).toBe(jump.index);
  });

  it('marks elements that are new since the last snapshot with *, and nothing on the first snapshot', async () => {
    const page = await h.open('/delayed.html?ms=0');
    await page.waitForFunction(() => document.querySelectorAll('#orders li').length === 2);
    const first = await snapshot(page);
    expect(first.elements.every((e) => !e.is_new)).toBe(true);
    expect(first.text).not.toContain('*[');
    await page.click('#load-more');
    await page.waitForFunction(() => document.querySelectorAll('#orders li').length === 4);
    const second = await snapshot(page);
    const fresh = second.elements.filter((e) => e.is_new).map((e) => e.name);
    expect(fresh).toEqual(['Track order 1003', 'Track order 1004']);
    const track3 = byName(second, 'Track order 1003');
    expect(second.text).toContain(`*[${track3.index}]<button>Track order 1003</>`);
    expect(byName(second, 'Track order 1001').is_new).toBe(false);
    const third = await snapshot(page);
    expect(third.elements.some((e) => e.is_new)).toBe(false);
  });

  it('keeps existing indices when a node is inserted before them, and marks only the inserted ones new', async () => {
    const page = await h.open('/cards.html');
    const first = await snapshot(page);
    expect(first.elements.length).toBeGreaterThan(2);
    await page.evaluate(() => {
      const banner = document.createElement('div');
      banner.innerHTML = '<button type="button">Accept the offer</button> <a href="/index.html">Read the offer</a>';
      document.body.prepend(banner);
    });
    const second = await snapshot(page);
    // Document order puts the new elements first; they still get new indices, and the old ones keep theirs.
    expect(second.elements.slice(0, 2).map((e) => [e.name, e.is_new])).toEqual([
      ['Accept the offer', true],
      ['Read the offer', true],
    ]);
    const maxFirst = Math.max(...first.elements.map((e) => e.index));
    expect(byName(second, 'Accept the offer').index).toBeGreaterThan(maxFirst);
    for (const old of first.elements) {
      const again = second.elements.find((e) => e.name === old.name && e.tag === old.tag);
      expect(again, old.name).toMatchObject({ index: old.index, is_new: false });
    }
    expect(second.text).toContain(`*[${byName(second, 'Accept the offer').index}]<button>Accept the offer</>`);
  });

  it('installs once per document as a non-enumerable global, and re-injection keeps the indices', async () => {
    const page = await h.open('/cards.html');
    const first = await snapshot(page);
    await page.evaluate(h.source);
    const second = await snapshot(page);
    expect(second.elements.map((e) => e.index)).toEqual(first.elements.map((e) => e.index));
    expect(second.elements.some((e) => e.is_new)).toBe(false);
    const visible = await page.evaluate(() => Object.keys(window).includes('__tandem'));
    expect(visible).toBe(false);
  });
});

describe('snapshot: page structure', () => {
  it('says how much page lies above and below the viewport', async () => {
    const page = await h.open('/long.html');
    const top = await snapshot(page);
    expect(top.scroll.above_px).toBe(0);
    expect(top.scroll.below_px).toBeGreaterThan(5000);
    expect(top.text.startsWith('[top of page]')).toBe(true);
    expect(top.text).toMatch(/\[\d+px \([\d.]+ pages\) below the viewport; scroll to see more\]$/);
    await page.evaluate(() => window.scrollTo(0, 3000));
    const mid = await snapshot(page);
    expect(mid.scroll.above_px).toBe(3000);
    expect(mid.scroll.above_pages).toBeCloseTo(3000 / 700, 1);
    expect(mid.text.startsWith('[3000px (4.3 pages) above the viewport]')).toBe(true);
  });

  it('shows only the viewport by default, and everything with full_page', async () => {
    const page = await h.open('/long.html');
    const viewport = await snapshot(page);
    expect(hasName(viewport, 'Jump to the last section')).toBe(true);
    expect(hasName(viewport, 'Back to top')).toBe(false);
    expect(viewport.text).not.toContain('Section 30: Troubleshooting');
    expect(viewport.elements.every((e) => e.in_viewport)).toBe(true);
    const full = await snapshot(page, { full_page: true });
    expect(hasName(full, 'Back to top')).toBe(true);
    expect(full.text).toContain('Section 30: Troubleshooting');
    expect(byName(full, 'Back to top').in_viewport).toBe(false);
    // The whole page needs no edge markers; where the viewport sits is still said once scrolled.
    expect(full.text.startsWith('# User guide')).toBe(true);
    expect(full.text).not.toContain('[end of page]');
    await page.evaluate(() => window.scrollTo(0, 1200));
    expect((await snapshot(page, { full_page: true })).text).toMatch(
      /^\[full page; the viewport is 1200px from the top\]/,
    );
  });

  it('indexes scrollable containers and says how much of them is hidden', async () => {
    const page = await h.open('/long.html');
    const snap = await snapshot(page);
    const log = snap.elements.find((e) => e.scroll)!;
    expect(log.scroll!.above_px).toBe(0);
    expect(log.scroll!.below_px).toBeGreaterThan(0);
    expect(snap.text).toMatch(new RegExp(`\\[${log.index}\\]<div scroll="0px above, \\d+px below">`));
  });

  it('includes elements inside open shadow roots, with slotted content, but not closed ones', async () => {
    const page = await h.open('/shadow.html');
    const snap = await snapshot(page);
    expect(byName(snap, 'Subscribe').tag).toBe('button');
    expect(byName(snap, 'Your email').attributes.placeholder).toBe('Email for the newsletter'); // named by its label
    expect(byName(snap, 'Privacy policy').tag).toBe('a'); // shadow root nested in a shadow root
    expect(snap.text).toContain('Join 10,000 readers');
    expect(snap.text).not.toContain('Secret closed button');
  });

  it('inlines same-origin iframes and marks cross-origin ones', async () => {
    const page = await h.open('/frames.html');
    await page.waitForFunction(() => {
      const doc = (document.getElementById('same') as HTMLIFrameElement).contentDocument;
      return doc?.readyState === 'complete' && doc.getElementById('pay') !== null;
    });
    const snap = await snapshot(page);
    const pay = byName(snap, 'Pay now');
    expect(pay.frame_depth).toBe(1);
    // The box is in top-viewport coordinates: below the iframe's top edge on the page
    const frameTop = await page.evaluate(() => document.getElementById('same')!.getBoundingClientRect().top);
    expect(pay.box.y).toBeGreaterThan(frameTop);
    expect(snap.text).toMatch(/<iframe src="\/frame-inner.html\?who=same">\nCard details for the checkout/);
    expect(snap.frames).toHaveLength(1);
    expect(snap.frames[0]!.src).toBe(`${h.site.otherOrigin}/frame-inner.html?who=cross`);
    expect(snap.text).toContain(
      `<iframe cross-origin src="${h.site.otherOrigin}/frame-inner.html?who=cross">(content not shown)</iframe>`,
    );
    expect(snap.elements.filter((e) => e.name === 'Pay now')).toHaveLength(1);
  });

  it('fits a character budget by dropping the least useful text first, and says so', async () => {
    const page = await h.open('/long.html');
    const full = await snapshot(page, { full_page: true });
    const small = await snapshot(page, { full_page: true, max_chars: 3000 });
    expect(full.truncated).toBe(false);
    expect(small.truncated).toBe(true);
    expect(small.text.length).toBeLessThanOrEqual(3000);
    expect(small.omitted_chars).toBeGreaterThan(0);
    expect(small.text).toMatch(/characters of page text left out to fit the 3000-character budget/);
    // Page prose goes before any element does; the buttons near the viewport are all still there.
    expect(small.text).not.toContain('Paragraph 35 explains');
    expect(small.text).toContain('Mark section 1 as read');
    expect(small.text).toContain('…');
    // The structured list keeps every element whatever the text budget.
    expect(small.elements).toHaveLength(full.elements.length);
  });
});
