import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byName, type Harness, hasName, snapshot, startHarness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('snapshot: which elements are indexed', () => {
  let inputs: Page;
  beforeAll(async () => {
    inputs = await h.open('/inputs.html');
  });

  it('indexes links, buttons, every visible input type, selects and textareas, but not hidden inputs', async () => {
    const snap = await snapshot(inputs, { full_page: true });
    const types = snap.elements.filter((e) => e.tag === 'input').map((e) => e.attributes.type);
    for (const t of ['text', 'email', 'password', 'tel', 'url', 'search', 'number', 'date', 'time']) {
      expect(types).toContain(t);
    }
    for (const t of ['datetime-local', 'month', 'week', 'range', 'color', 'file', 'checkbox', 'radio', 'button']) {
      expect(types).toContain(t);
    }
    expect(types).not.toContain('hidden');
    expect(snap.elements.filter((e) => e.tag === 'select')).toHaveLength(2);
    expect(snap.elements.some((e) => e.tag === 'textarea')).toBe(true);
    expect(byName(snap, 'Save preferences').tag).toBe('button');
    expect(byName(snap, 'Cancel').attributes.href).toBe('/index.html');
  });

  it('renders compact LLM text: [index]<tag attributes>label</>', async () => {
    const snap = await snapshot(inputs, { full_page: true });
    const save = byName(snap, 'Save preferences');
    // A button submits by default, so only `type=reset` is worth its tokens.
    expect(snap.text).toContain(`[${save.index}]<button>Save preferences</>`);
    expect(snap.text).toContain(`[${byName(snap, 'Reset').index}]<button type=reset>Reset</>`);
    const email = snap.elements.find((e) => e.attributes.name === 'email')!;
    expect(snap.text).toContain(`[${email.index}]<input type=email placeholder=you@example.com value=ada@example.com>`);
  });

  it('leaves attributes that say nothing new out of the text but keeps them in the structured element', async () => {
    const snap = await snapshot(inputs, { full_page: true });
    const phone = snap.elements.find((e) => e.attributes.name === 'phone')!;
    expect(phone.attributes).toMatchObject({ type: 'tel', name: 'phone', value: '' });
    expect(snap.text).toContain(`[${phone.index}]<input type=tel placeholder="+1 555 0100">`);
    const fullName = snap.elements.find((e) => e.attributes.name === 'full_name')!;
    expect(fullName.attributes.type).toBe('text');
    expect(snap.text).toContain(`[${fullName.index}]<input placeholder="Ada Lovelace" required>`);
    const plan = snap.elements.find((e) => e.attributes.type === 'radio')!;
    expect(snap.text).toContain(`[${plan.index}]<input type=radio name=plan`);
  });

  it('shows a link’s target only where its text does not say it, and no title its text already says', async () => {
    const page = await h.open('/cards.html');
    await page.evaluate(() => {
      const links = document.createElement('p');
      links.innerHTML = [
        '<a href="/orders/7?tab=items" title="Order 7">Order 7</a>',
        '<a href="https://elsewhere.test/story.12345" title="Read the full story">Story</a>',
        '<a href="/files/manual.pdf?v=2">Manual</a>',
        '<a href="/export/all" download>Export</a>',
        '<a href="mailto:help@example.com">Write to us</a>',
        '<a href="tel:+15550100">Call</a>',
        '<a href="javascript:void(0)">Menu</a>',
        '<a href="/cart" class="cart-icon" style="display:inline-block;width:20px;height:20px"></a>',
        '<a href="https://www.example.com">Home page</a>',
      ].join(' ');
      document.body.prepend(links);
    });
    const snap = await snapshot(page);
    const shown = (name: string) => `[${byName(snap, name).index}]`;
    // A named link to a page is read by its name; its target stays in the structured element.
    expect(snap.text).toContain(`${shown('Order 7')}<a>Order 7</>`);
    expect(byName(snap, 'Order 7').attributes).toMatchObject({ href: '/orders/7?tab=items', title: 'Order 7' });
    expect(snap.text).toContain(`${shown('Read the full story')}<a title="Read the full story">Story</>`);
    expect(snap.text).toContain(`${shown('Home page')}<a>Home page</>`);
    expect(snap.text).toContain(`${shown('Menu')}<a>Menu</>`);
    // Files, downloads, mail and phone links say where they lead.
    expect(snap.text).toContain(`${shown('Manual')}<a href="/files/manual.pdf?v=2">Manual</>`);
    expect(snap.text).toContain(`${shown('Export')}<a href=/export/all>Export</>`);
    expect(snap.text).toContain(`${shown('Write to us')}<a href=mailto:help@example.com>Write to us</>`);
    expect(snap.text).toContain(`${shown('Call')}<a href=tel:+15550100>Call</>`);
    // Nothing else says where a link with no name goes.
    const cart = snap.elements.find((e) => e.attributes.href === '/cart')!;
    expect(snap.text).toContain(`[${cart.index}]<a href=/cart hint=cart>`);
  });

  it('shows select options and the selected one', async () => {
    const snap = await snapshot(inputs, { full_page: true });
    const country = snap.elements.find((e) => e.attributes.name === 'country')!;
    expect(country.options?.map((o) => o.text)).toEqual(['United States', 'Canada', 'Mexico', 'France (unavailable)']);
    // The <label> wraps the list: its options are not part of its name.
    expect(country.name).toBe('Country');
    expect(snap.text).toContain(
      `[${country.index}]<select value=Canada>United States | Canada | Mexico | France (unavailable)</>`,
    );
  });

  it('shows current values and checked, disabled, readonly and required states', async () => {
    await inputs.fill('[name=phone]', '+1 555 0199');
    const snap = await snapshot(inputs, { full_page: true });
    const named = (n: string) => snap.elements.find((e) => e.attributes.name === n)!;
    expect(named('phone').attributes.value).toBe('+1 555 0199');
    expect(named('newsletter').states.checked).toBe(true);
    expect(named('terms').states.checked).toBe(false);
    expect(named('beta').states.disabled).toBe(true);
    expect(named('nickname').states.readonly).toBe(true);
    expect(named('full_name').states.required).toBe(true);
    expect(snap.text).toMatch(/\[\d+\]<input type=checkbox checked>/);
    expect(snap.text).toMatch(/\[\d+\]<input value=M-0001 disabled>/);
  });

  it('never shows a password value, only that the field is filled', async () => {
    await inputs.fill('[name=password]', 'typed-secret-value');
    const snap = await snapshot(inputs, { full_page: true });
    const pw = snap.elements.find((e) => e.attributes.type === 'password')!;
    expect(pw.attributes.value).toBeUndefined();
    expect(pw.states.filled).toBe(true);
    const serialized = JSON.stringify(snap);
    expect(serialized).not.toContain('typed-secret-value');
    expect(serialized).not.toContain('hunter2-secret');
  });

  it('keeps only whitelisted attributes and caps their values near 100 characters', async () => {
    const snap = await snapshot(inputs, { full_page: true });
    const motto = snap.elements.find((e) => e.attributes.name === 'motto')!;
    expect(motto.attributes.title!.length).toBeLessThanOrEqual(100);
    expect(motto.attributes.title!.endsWith('…')).toBe(true);
    for (const el of snap.elements) {
      for (const [name, value] of Object.entries(el.attributes)) {
        expect(name).not.toMatch(/^(class|id|style|data-.*|onclick)$/);
        expect(value.length).toBeLessThanOrEqual(100);
      }
    }
  });

  it('indexes ARIA widgets, click handlers, contenteditable roots and labels standing in for hidden inputs', async () => {
    const page = await h.open('/visibility.html');
    const snap = await snapshot(page, { full_page: true });
    expect(byName(snap, 'ARIA button').role).toBe('button');
    expect(byName(snap, 'Div with an onclick handler').tag).toBe('div');
    // cursor:pointer marks the div, but not its child that merely inherits the cursor
    expect(byName(snap, 'A clickable div with a child that inherits the pointer').tag).toBe('div');
    expect(snap.elements.filter((e) => e.tag === 'span' && e.text.includes('inherits'))).toHaveLength(0);
    expect(byName(snap, 'Editable note').tag).toBe('div');
    expect(byName(snap, 'Dark mode').tag).toBe('label');
  });
});

describe('snapshot: ARIA widgets', () => {
  it('indexes role=checkbox and role=switch with their checked state', async () => {
    const vis = await snapshot(await h.open('/visibility.html'), { full_page: true });
    const compact = byName(vis, 'Compact layout');
    expect(compact).toMatchObject({ tag: 'div', role: 'checkbox', states: { checked: false } });
    expect(vis.text).toContain(`[${compact.index}]<checkbox>Compact layout</>`);
    const settings = await snapshot(await h.open('/settings.html'), { full_page: true });
    expect(byName(settings, 'Dark mode')).toMatchObject({ role: 'switch', states: { checked: false } });
  });

  it('indexes menu items once their menu is open', async () => {
    const page = await h.open('/settings.html');
    expect(hasName(await snapshot(page), 'Rename')).toBe(false);
    await page.click('#file-menu');
    const snap = await snapshot(page);
    const rename = byName(snap, 'Rename');
    expect(rename).toMatchObject({ tag: 'div', role: 'menuitem' });
    expect(snap.text).toContain(`[${rename.index}]<menuitem>Rename</>`);
    expect(byName(snap, 'File').states.expanded).toBe(true);
  });

  it('indexes a combobox and, once open, its options with their selected state', async () => {
    const page = await h.open('/dropdown.html');
    const closed = await snapshot(page);
    const carrier = byName(closed, 'Pick a carrier');
    expect(carrier).toMatchObject({ tag: 'button', role: 'combobox', states: { expanded: false } });
    expect(closed.text).toContain(`[${carrier.index}]<combobox aria-haspopup=listbox collapsed>Pick a carrier</>`);
    expect(hasName(closed, 'FedEx')).toBe(false);
    await page.click('#carrier');
    await page.waitForSelector('#c-fedex', { state: 'visible' });
    const open = await snapshot(page);
    const fedex = byName(open, 'FedEx');
    expect(fedex).toMatchObject({ tag: 'div', role: 'option' });
    expect(open.text).toContain(`[${fedex.index}]<option>FedEx</>`);
    await page.click('#c-fedex');
    await page.click('#carrier');
    await page.waitForSelector('#c-fedex', { state: 'visible' });
    // The combobox now reads "FedEx" too: look the option up by its role.
    const reopened = await snapshot(page);
    expect(reopened.elements.find((e) => e.role === 'option' && e.name === 'FedEx')?.states.selected).toBe(true);
  });

  it('flags contenteditable roots as editable, and nothing else', async () => {
    const snap = await snapshot(await h.open('/visibility.html'), { full_page: true });
    expect(byName(snap, 'Editable note').editable).toBe(true);
    expect(snap.elements.filter((e) => e.editable).map((e) => e.name)).toEqual(['Editable note']);
  });
});

describe('snapshot: what is left out', () => {
  it('leaves out hidden, transparent, zero-size and inert elements, and text nobody can see', async () => {
    const page = await h.open('/visibility.html');
    const snap = await snapshot(page, { full_page: true });
    expect(hasName(snap, 'Visible button')).toBe(true);
    expect(hasName(snap, 'Visible child of invisible parent')).toBe(true);
    for (const name of [
      'Display none button',
      'Visibility hidden button',
      'Transparent button',
      'Zero size button',
      'Hidden attribute button',
      'Link inside a hidden div',
      'Inert button',
    ]) {
      expect(hasName(snap, name), name).toBe(false);
    }
    expect(snap.text).not.toContain('Invisible paragraph');
    expect(snap.text).not.toContain('Display none button');
    expect(snap.text).not.toContain('Screen-reader-only text');
  });

  it('leaves out the content of closed <details> and hidden tab panels', async () => {
    const faq = await snapshot(await h.open('/collapsible.html'), { full_page: true });
    expect(faq.text).not.toContain('Orders ship within two business days');
    expect(faq.text).toContain('Yes, within 30 days of delivery');
    expect(byName(faq, 'How long does shipping take?').states.expanded).toBe(false);
    expect(byName(faq, 'Warranty').states.expanded).toBe(false);
    const tabs = await snapshot(await h.open('/tabs.html'), { full_page: true });
    expect(tabs.text).not.toContain('Capacity: 1.7 litres');
    expect(byName(tabs, 'Overview').states.selected).toBe(true);
  });

  it('names an ARIA widget by its role and shows expanded state as a word', async () => {
    const tabs = await snapshot(await h.open('/tabs.html'), { full_page: true });
    const overview = byName(tabs, 'Overview');
    expect(overview).toMatchObject({ tag: 'button', role: 'tab' });
    expect(tabs.text).toContain(`[${overview.index}]<tab selected>Overview</>`);
    const faq = await snapshot(await h.open('/collapsible.html'), { full_page: true });
    expect(faq.text).toContain(`[${byName(faq, 'Warranty').index}]<button collapsed>Warranty</>`);
    expect(faq.text).toContain(`[${byName(faq, 'Care instructions').index}]<button expanded>Care instructions</>`);
    // A form field keeps its tag: that text can be typed into it matters more than its role.
    const page = await h.open('/inputs.html');
    await page.evaluate(() => document.querySelector('input[name=full_name]')?.setAttribute('role', 'combobox'));
    const inputs = await snapshot(page, { full_page: true });
    const fullName = inputs.elements.find((e) => e.attributes.name === 'full_name')!;
    expect(inputs.text).toContain(`[${fullName.index}]<input role=combobox placeholder="Ada Lovelace" required>`);
  });

  it('shows only the dialog while a native modal dialog is open', async () => {
    const page = await h.open('/modal.html');
    await page.click('#open-dialog');
    const snap = await snapshot(page);
    expect(snap.modal).toBe(true);
    expect(hasName(snap, 'Delete forever')).toBe(true);
    expect(hasName(snap, 'Delete account')).toBe(false);
    expect(snap.text).not.toContain('Manage how often we write to you');
  });

  it('leaves out elements covered by an overlay that has no aria-modal', async () => {
    const page = await h.open('/modal.html');
    const before = await snapshot(page);
    expect(hasName(before, 'Show cookie notice')).toBe(true);
    await page.click('#open-overlay');
    const snap = await snapshot(page);
    expect(snap.modal).toBe(false);
    expect(hasName(snap, 'Accept cookies')).toBe(true);
    expect(hasName(snap, 'Show cookie notice')).toBe(false);
    expect(hasName(snap, 'All fixture pages')).toBe(false);
  });

  it('shows only an aria-modal dialog while it is open, even where it does not cover the page', async () => {
    const page = await h.open('/modal.html');
    await page.click('#open-aria');
    const snap = await snapshot(page);
    expect(snap.modal).toBe(true);
    expect(snap.text).toContain('[a modal dialog is open: only its content is shown]');
    expect(hasName(snap, 'Basic plan')).toBe(true);
    expect(snap.text).toContain('Choose a plan');
    // The button sits at the top left, outside the dialog's box: hit-testing alone would keep it.
    const box = await page.locator('#open-dialog').boundingBox();
    const dialog = await page.locator('#plan-dialog').boundingBox();
    expect(box!.y + box!.height).toBeLessThan(dialog!.y);
    expect(hasName(snap, 'Delete account')).toBe(false);
    expect(snap.text).not.toContain('Manage how often we write to you');
    await page.click('#plan-close');
    expect(hasName(await snapshot(page), 'Delete account')).toBe(true);
  });
});
