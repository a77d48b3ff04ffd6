import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WAIT_MS } from '../../src/actions/index';
import { act, byName, elementBox, type Harness, snapshot, startHarness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('act: pointer', () => {
  it('clicks a button by index and the page reacts', async () => {
    const page = await h.open('/cards.html');
    const snap = await snapshot(page);
    const res = await act(page, { action: 'click', index: byName(snap, 'Add Calm Lamp to cart').index });
    expect(res.code).toBe('ok');
    expect(await page.textContent('#cart')).toBe('1 items');
  });

  it('clicks tabs, accordions and summaries, and the next snapshot shows the new state', async () => {
    const page = await h.open('/tabs.html');
    await act(page, { action: 'click', index: byName(await snapshot(page), 'Specifications').index });
    const tabs = await snapshot(page);
    expect(byName(tabs, 'Specifications').states.selected).toBe(true);
    expect(tabs.text).toContain('Capacity: 1.7 litres');
    const faq = await h.open('/collapsible.html');
    await act(faq, { action: 'click', index: byName(await snapshot(faq), 'How long does shipping take?').index });
    const after = await snapshot(faq);
    expect(byName(after, 'How long does shipping take?').states.expanded).toBe(true);
    expect(after.text).toContain('Orders ship within two business days');
  });

  it('reports navigation when a click starts loading a new document', async () => {
    const page = await h.open('/table.html');
    const next = byName(await snapshot(page), 'Next');
    const res = await act(page, { action: 'click', index: next.index });
    expect(res.code).toBe('navigation');
    expect(res.url).toBe(`${h.site.url}/table.html?page=2`);
    await page.waitForURL('**/table.html?page=2');
  });

  it('returns stale_element for an index that is gone or never existed, without throwing', async () => {
    const page = await h.open('/delayed.html?ms=0');
    await page.waitForFunction(() => document.querySelectorAll('#orders li').length === 2);
    const track = byName(await snapshot(page), 'Track order 1001');
    await page.evaluate(() => document.getElementById('orders')!.replaceChildren());
    expect((await act(page, { action: 'click', index: track.index })).code).toBe('stale_element');
    const missing = await act(page, { action: 'type', index: 9999, text: 'x' });
    expect(missing.code).toBe('stale_element');
    expect(missing.message).toMatch(/take a new snapshot/);
  });

  it('refuses to click an element that a modal covers, saying what covers it', async () => {
    const page = await h.open('/modal.html');
    const notice = byName(await snapshot(page), 'Show cookie notice');
    await page.click('#open-overlay');
    const res = await act(page, { action: 'click', index: notice.index });
    expect(res.code).toBe('not_interactable');
    expect(res.message).toMatch(/covered/);
  });

  it('refuses disabled elements with not_interactable', async () => {
    const page = await h.open('/inputs.html');
    const snap = await snapshot(page, { full_page: true });
    const beta = snap.elements.find((e) => e.attributes.name === 'beta')!;
    const res = await act(page, { action: 'check', index: beta.index, checked: true });
    expect(res.code).toBe('not_interactable');
    expect(res.message).toMatch(/disabled/);
  });

  it('hovers an element with pointer events', async () => {
    const page = await h.open('/cards.html');
    const link = byName(await snapshot(page), 'Acme Kettle');
    await page.evaluate(() => {
      document.querySelector('a')!.addEventListener('mouseenter', () => {
        document.title = 'hovered';
      });
    });
    expect((await act(page, { action: 'hover', index: link.index })).code).toBe('ok');
    expect(await page.title()).toBe('hovered');
  });

  it('scrolls the page by screens, and a scrollable element by its own height', async () => {
    const page = await h.open('/long.html');
    const res = await act(page, { action: 'scroll', direction: 'down', amount: 2 });
    expect(res.code).toBe('ok');
    expect(await page.evaluate(() => window.scrollY)).toBe(1400);
    await act(page, { action: 'scroll', direction: 'up', amount: 1 });
    expect(await page.evaluate(() => window.scrollY)).toBe(700);
    await page.evaluate(() => window.scrollTo(0, 0));
    const log = (await snapshot(page)).elements.find((e) => e.scroll)!;
    await act(page, { action: 'scroll', index: log.index, direction: 'down', amount: 1 });
    expect(await page.evaluate(() => document.getElementById('log')!.scrollTop)).toBeGreaterThan(100);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('scrolls an element outside the viewport into view before clicking it', async () => {
    const page = await h.open('/long.html');
    const full = await snapshot(page, { full_page: true });
    const mark = byName(full, 'Mark section 30 as read');
    expect((await act(page, { action: 'click', index: mark.index })).code).toBe('ok');
    expect(await page.textContent('button[data-section="30"]')).toBe('Section 30 read');
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  });

  it('gives the driver a box and an uncovered point, so a trusted page.mouse click lands on the element', async () => {
    const page = await h.open('/frames.html');
    await page.waitForFunction(
      () => (document.getElementById('same') as HTMLIFrameElement).contentDocument?.getElementById('pay') !== null,
    );
    const snap = await snapshot(page, { full_page: true });
    const pay = byName(snap, 'Pay now');
    const found = await elementBox(page, pay.index);
    if (found.code !== 'ok') throw new Error(found.message);
    expect(found.center.x).toBeGreaterThanOrEqual(found.box.x);
    expect(found.center.x).toBeLessThanOrEqual(found.box.x + found.box.width);
    await page.mouse.click(found.center.x, found.center.y);
    const frame = page.frames().find((f) => f.url().includes('who=same'))!;
    await expect.poll(() => frame.textContent('#paid')).toBe('Paid with ');
    expect((await elementBox(page, 4242)).code).toBe('stale_element');
  });

  it('tells the extension what a click follows and what an element takes, so it can refuse or type trusted', async () => {
    const page = await h.open('/inputs.html');
    const snap = await snapshot(page, { full_page: true });
    const box = async (name: string) => {
      const found = await elementBox(page, byName(snap, name).index);
      if (found.code !== 'ok') throw new Error(found.message);
      return { link: found.link, file: found.file, keystrokes: found.keystrokes };
    };
    expect(await box('Cancel')).toEqual({ link: `${h.site.url}/index.html`, file: false, keystrokes: false });
    expect(await box('Avatar')).toEqual({ link: '', file: true, keystrokes: false });
    expect(await box('Bio')).toEqual({ link: '', file: false, keystrokes: true });
    expect(await box('Email')).toEqual({ link: '', file: false, keystrokes: true });
    expect(await box('Birthday')).toEqual({ link: '', file: false, keystrokes: false });
  });
});

describe('act: forms', () => {
  it('types into a text field, replacing its value by default or appending with clear=false', async () => {
    const page = await h.open('/inputs.html');
    const snap = await snapshot(page, { full_page: true });
    const email = snap.elements.find((e) => e.attributes.name === 'email')!;
    const res = await act(page, { action: 'type', index: email.index, text: 'grace@example.com' });
    expect(res).toMatchObject({ code: 'ok', value: 'grace@example.com' });
    expect(await page.inputValue('[name=email]')).toBe('grace@example.com');
    await act(page, { action: 'type', index: email.index, text: '.uk', clear: false });
    expect(await page.inputValue('[name=email]')).toBe('grace@example.com.uk');
    expect(await page.textContent('#status')).toBe('changed email = grace@example.com.uk');
  });

  it('types into date, range and color inputs and textareas', async () => {
    const page = await h.open('/inputs.html');
    const snap = await snapshot(page, { full_page: true });
    const named = (n: string) => snap.elements.find((e) => e.attributes.name === n)!.index;
    await act(page, { action: 'type', index: named('birthday'), text: '1990-05-17' });
    await act(page, { action: 'type', index: named('volume'), text: '8' });
    await act(page, { action: 'type', index: named('bio'), text: 'Line one' });
    expect(await page.inputValue('[name=birthday]')).toBe('1990-05-17');
    expect(await page.inputValue('[name=volume]')).toBe('8');
    expect(await page.inputValue('[name=bio]')).toBe('Line one');
  });

  it('types into React-style controlled inputs, whose state only follows native-setter input events', async () => {
    const page = await h.open('/react-input.html');
    // The naive way is swallowed by the tracker: this is what the fixture guards against.
    await page.evaluate(() => {
      const el = document.getElementById('display-name') as HTMLInputElement;
      el.value = 'naive';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(await page.textContent('#name-state')).toBe('');
    const snap = await snapshot(page);
    await act(page, { action: 'type', index: byName(snap, 'Display name').index, text: 'Ada' });
    await act(page, { action: 'type', index: byName(snap, 'About').index, text: 'Mathematician' });
    expect(await page.textContent('#name-state')).toBe('Ada');
    expect(await page.textContent('#about-state')).toBe('Mathematician');
    expect(await page.inputValue('#display-name')).toBe('Ada');
  });

  it('types into a contenteditable element', async () => {
    const page = await h.open('/visibility.html');
    const res = await act(page, {
      action: 'type',
      index: byName(await snapshot(page), 'Editable note').index,
      text: 'New note',
    });
    expect(res.code).toBe('ok');
    expect(await page.textContent('#editor')).toBe('New note');
  });

  it('never echoes a typed password', async () => {
    const page = await h.open('/login.html');
    const pw = byName(await snapshot(page), 'Password');
    const res = await act(page, { action: 'type', index: pw.index, text: 'correct-horse' });
    expect(res.code).toBe('ok');
    expect(JSON.stringify(res)).not.toContain('correct-horse');
  });

  it('submits with submit=true, through the form submit handler', async () => {
    const page = await h.open('/login.html');
    const snap = await snapshot(page);
    await act(page, { action: 'type', index: byName(snap, 'Email address').index, text: 'ada@example.com' });
    await act(page, { action: 'type', index: byName(snap, 'Password').index, text: 'correct-horse', submit: true });
    expect(await page.textContent('#who')).toBe('Signed in as ada@example.com');
  });

  it('reports navigation when submitting a form loads a new page', async () => {
    const page = await h.open('/form.html');
    const snap = await snapshot(page);
    const res = await act(page, { action: 'type', index: byName(snap, 'Name').index, text: 'Ada', submit: true });
    expect(res.code).toBe('navigation');
    expect(res.url).toContain('/echo?name=Ada');
    await page.waitForURL('**/echo?**');
  });

  it('rejects typing into something that takes no text', async () => {
    const page = await h.open('/cards.html');
    const res = await act(page, {
      action: 'type',
      index: byName(await snapshot(page), 'Add Calm Lamp to cart').index,
      text: 'x',
    });
    expect(res.code).toBe('invalid_target');
  });

  it('selects an option of a native select by text or value, and lists options when none matches', async () => {
    const page = await h.open('/inputs.html');
    const snap = await snapshot(page, { full_page: true });
    const country = snap.elements.find((e) => e.attributes.name === 'country')!;
    expect(await act(page, { action: 'select_option', index: country.index, option: 'Mexico' })).toMatchObject({
      code: 'ok',
      value: 'Mexico',
    });
    expect(await page.inputValue('[name=country]')).toBe('mx');
    expect(await page.textContent('#status')).toBe('changed country = mx');
    await act(page, { action: 'select_option', index: country.index, option: 'us' });
    expect(await page.inputValue('[name=country]')).toBe('us');
    const missing = await act(page, { action: 'select_option', index: country.index, option: 'Atlantis' });
    expect(missing.code).toBe('invalid_target');
    expect(missing.message).toContain('United States, Canada, Mexico');
    const disabled = await act(page, { action: 'select_option', index: country.index, option: 'France (unavailable)' });
    expect(disabled.code).toBe('not_interactable');
  });

  it('selects from a div-based dropdown and from an ARIA combobox whose options render late', async () => {
    const page = await h.open('/dropdown.html');
    const snap = await snapshot(page);
    const speed = await act(page, {
      action: 'select_option',
      index: byName(snap, 'Choose a speed').index,
      option: 'Express (2 days)',
    });
    expect(speed.code).toBe('ok');
    const carrier = await act(page, {
      action: 'select_option',
      index: byName(snap, 'Pick a carrier').index,
      option: 'fedex',
    });
    expect(carrier.code).toBe('ok');
    expect(await page.textContent('#summary')).toBe('Speed: express · Carrier: FedEx');
  });

  it('checks and unchecks checkboxes, chooses radios, and toggles through a label over a hidden input', async () => {
    const page = await h.open('/inputs.html');
    const snap = await snapshot(page, { full_page: true });
    const named = (n: string, v?: string) =>
      snap.elements.find((e) => e.attributes.name === n && (v === undefined || e.name.includes(v)))!.index;
    expect((await act(page, { action: 'check', index: named('terms') })).code).toBe('ok');
    expect(await page.isChecked('[name=terms]')).toBe(true);
    expect((await act(page, { action: 'check', index: named('newsletter'), checked: false })).code).toBe('ok');
    expect(await page.isChecked('[name=newsletter]')).toBe(false);
    const again = await act(page, { action: 'check', index: named('newsletter'), checked: false });
    expect(again.message).toMatch(/already unchecked/);
    await act(page, { action: 'check', index: named('plan', 'Pro') });
    expect(await page.isChecked('[name=plan][value=pro]')).toBe(true);
    const uncheckRadio = await act(page, { action: 'check', index: named('plan', 'Pro'), checked: false });
    expect(uncheckRadio.code).toBe('invalid_target');
    const vis = await h.open('/visibility.html');
    await act(vis, { action: 'check', index: byName(await snapshot(vis), 'Dark mode').index });
    expect(await vis.isChecked('#dark-mode')).toBe(true);
  });

  it('checks and unchecks ARIA switches and checkboxes, reading aria-checked', async () => {
    const page = await h.open('/settings.html');
    const dark = byName(await snapshot(page), 'Dark mode');
    expect(await act(page, { action: 'check', index: dark.index })).toMatchObject({ code: 'ok' });
    expect(await page.getAttribute('#dark', 'aria-checked')).toBe('true');
    const again = await act(page, { action: 'check', index: dark.index, checked: true });
    expect(again.message).toMatch(/already checked/);
    expect((await act(page, { action: 'check', index: dark.index, checked: false })).code).toBe('ok');
    expect(await page.getAttribute('#dark', 'aria-checked')).toBe('false');
    const vis = await h.open('/visibility.html');
    const compact = byName(await snapshot(vis, { full_page: true }), 'Compact layout');
    const res = await act(vis, { action: 'check', index: compact.index });
    expect(res.message).toMatch(/is now checked/);
    expect(await vis.getAttribute('#aria-checkbox', 'aria-checked')).toBe('true');
  });
});

describe('act: keyboard and flow', () => {
  it('presses Enter to submit, Tab to move focus, and Escape to close a modal dialog', async () => {
    const page = await h.open('/login.html');
    const snap = await snapshot(page);
    await act(page, { action: 'type', index: byName(snap, 'Email address').index, text: 'ada@example.com' });
    const tab = await act(page, { action: 'press_key', key: 'Tab' });
    expect(tab.message).toMatch(/focus moved/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
    await act(page, { action: 'type', index: byName(snap, 'Password').index, text: 'correct-horse' });
    await act(page, { action: 'press_key', key: 'Enter' });
    expect(await page.textContent('#who')).toBe('Signed in as ada@example.com');

    const modal = await h.open('/modal.html');
    await modal.click('#open-dialog');
    const inDialog = byName(await snapshot(modal), 'Keep my account');
    await act(modal, { action: 'press_key', key: 'Escape', index: inDialog.index });
    await expect.poll(() => modal.textContent('#result')).toBe('Dialog answer: dismissed');
  });

  it('sends modifiers with the key event', async () => {
    const page = await h.open('/react-input.html');
    await page.evaluate(() => {
      document.addEventListener('keydown', (e) => {
        if (e.ctrlKey && e.key === 'k') document.title = 'palette';
      });
    });
    const res = await act(page, { action: 'press_key', key: 'k', modifiers: ['Control'] });
    expect(res.code).toBe('ok');
    expect(await page.title()).toBe('palette');
  });

  it('moves through a select with the arrow keys and sends arrow keys to the page', async () => {
    const page = await h.open('/inputs.html');
    const country = (await snapshot(page, { full_page: true })).elements.find((e) => e.attributes.name === 'country')!;
    const before = await page.$eval('[name=country]', (el) => (el as HTMLSelectElement).selectedIndex);
    await act(page, { action: 'press_key', key: 'ArrowDown', index: country.index });
    expect(await page.$eval('[name=country]', (el) => (el as HTMLSelectElement).selectedIndex)).toBe(before + 1);
    expect(await page.textContent('#status')).toMatch(/^changed country = /);
    await act(page, { action: 'press_key', key: 'ArrowUp', index: country.index });
    expect(await page.$eval('[name=country]', (el) => (el as HTMLSelectElement).selectedIndex)).toBe(before);
    await page.evaluate(() => {
      document.addEventListener('keydown', (e) => {
        document.title = `${e.shiftKey ? 'Shift+' : ''}${e.key}`;
      });
    });
    await act(page, { action: 'press_key', key: 'ArrowRight', modifiers: ['Shift'] });
    expect(await page.title()).toBe('Shift+ArrowRight');
    await act(page, { action: 'press_key', key: 'ArrowLeft' });
    expect(await page.title()).toBe('ArrowLeft');
  });

  it('never waits longer than MAX_WAIT_MS, however long the action asks for', async () => {
    // A fake clock, installed before the runtime captures its timers, lets the test run the time forward.
    const context = await h.browser.newContext();
    try {
      await context.clock.install();
      await context.addInitScript({ content: h.source });
      const page = await context.newPage();
      await page.goto(`${h.site.url}/cards.html`);
      const plain = act(page, { action: 'wait', ms: 10 * MAX_WAIT_MS });
      const forText = act(page, { action: 'wait', ms: 10 * MAX_WAIT_MS, until_text: 'never shown' });
      await page.clock.runFor(MAX_WAIT_MS + 1_000);
      expect(await plain).toEqual({ code: 'ok', message: `Waited ${MAX_WAIT_MS} ms.` });
      expect(await forText).toMatchObject({
        code: 'timeout',
        message: `"never shown" did not appear within ${MAX_WAIT_MS} ms.`,
      });
    } finally {
      await context.close();
    }
  });

  it('waits until text appears, bounded, and times out with a typed result', async () => {
    const page = await h.open('/delayed.html?ms=400');
    const res = await act(page, { action: 'wait', until_text: 'your orders are ready', ms: 5000 });
    expect(res.code).toBe('ok');
    const late = await act(page, { action: 'wait', until_text: 'never shown', ms: 300 });
    expect(late.code).toBe('timeout');
    const plain = await act(page, { action: 'wait', ms: 50 });
    expect(plain.code).toBe('ok');
  });

  it('answers unsupported for driver actions and an error for malformed ones, never throwing', async () => {
    const page = await h.open('/cards.html');
    expect((await act(page, { action: 'navigate', url: 'https://example.com' })).code).toBe('unsupported');
    expect((await act(page, { action: 'go_back' })).code).toBe('unsupported');
    const bad = await page.evaluate(() =>
      (window as unknown as { __tandem: { act(a: unknown): Promise<{ code: string }> } }).__tandem.act({
        action: 'click',
        index: 'twelve',
      }),
    );
    expect(bad.code).toBe('error');
  });

  it('keeps working when the page patches focus after load and a handler throws', async () => {
    const page = await h.open('/cards.html');
    await page.evaluate(() => {
      HTMLElement.prototype.focus = () => {
        throw new Error('page broke focus');
      };
    });
    await page.evaluate(() => {
      document.querySelector('button.add')!.addEventListener('pointerdown', () => {
        throw new Error('listener error');
      });
    });
    const res = await act(page, {
      action: 'click',
      index: byName(await snapshot(page), 'Add Acme Kettle to cart').index,
    });
    expect(res.code).toBe('ok');
    expect(await page.textContent('#cart')).toBe('1 items');
  });
});
