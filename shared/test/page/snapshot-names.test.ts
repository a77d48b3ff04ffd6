import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/page/index';
import { type Harness, snapshot, startHarness } from './harness';

let h: Harness;
let page: Page;
let snap: Snapshot;
beforeAll(async () => {
  h = await startHarness();
  page = await h.open('/labels.html');
  snap = await snapshot(page, { full_page: true });
});
afterAll(async () => {
  await h?.close();
});

const nameOf = (s: Snapshot, field: string) => {
  const found = s.elements.find((e) => e.attributes.name === field);
  if (!found) throw new Error(`no field ${field} in:\n${s.text}`);
  return found.name;
};

describe('snapshot: form fields are named the way assistive technology names them', () => {
  it('takes aria-labelledby, aria-label, wrapping and for= labels, placeholder and title, in that order', () => {
    expect(nameOf(snap, 'f1')).toBe('Home city');
    expect(nameOf(snap, 'f2')).toBe('Street address');
    expect(nameOf(snap, 'f3')).toBe('Nickname');
    expect(nameOf(snap, 'f4')).toBe('Favourite colour');
    expect(nameOf(snap, 'f5')).toBe('Postcode');
    expect(nameOf(snap, 'f6')).toBe('Phone number');
  });

  it('names an unlabelled field by the label-like text just before it: a sibling, a text node, a cell', () => {
    expect(nameOf(snap, 'f7')).toBe('Username');
    expect(nameOf(snap, 'f8')).toBe('Password:');
    expect(nameOf(snap, 'f9')).toBe('Coupon code');
    expect(nameOf(snap, 'f10')).toBe('Director');
    expect(nameOf(snap, 'f11')).toBe('Release year');
    expect(nameOf(snap, 'f12')).toBe('Movie Genre');
    expect(snap.elements.find((e) => e.role === 'textbox')?.name).toBe('Notes');
  });

  it('reads a caption after the field when the field is alone in its wrapper, and the text after a checkbox', () => {
    expect(nameOf(snap, 'f13')).toBe('Shoe size');
    expect(nameOf(snap, 'f14')).toBe('Send me the newsletter');
  });

  it('skips hidden text, and names a select by its label rather than its value', () => {
    expect(nameOf(snap, 'f15')).toBe('Country');
  });

  it('never borrows another control’s label, a number, or a sentence of page text', () => {
    expect(nameOf(snap, 'f16')).toBe('Amount');
    expect(nameOf(snap, 'f17')).toBe('');
    expect(nameOf(snap, 'f18')).toBe('');
    expect(nameOf(snap, 'f19')).toBe('');
    expect(nameOf(snap, 'f20')).toBe('');
  });

  it('writes a field’s name into the text as label= where the text right before it does not already say it', () => {
    // The model reads the same name the built-in planner and retrieve go by.
    expect(snap.text).toMatch(/\[\d+\]<input name=f13 label="Shoe size">/);
    expect(snap.text).toMatch(/Director \| \[\d+\]<input name=f10>/);
    expect(snap.text).toMatch(/Username \[\d+\]<input name=f7>/);
    expect(snap.text).toMatch(/\[\d+\]<input aria-label="Street address">/);
    expect(snap.text).toMatch(/Country \[\d+\]<select name=f15 value=Peru>/);
  });

  it('keeps the name when the page replaces the DOM and string builtins it could use', async () => {
    const hostile = await h.open('/labels.html');
    await hostile.evaluate(() => {
      String.prototype.toLowerCase = () => 'input';
      String.prototype.charCodeAt = () => 46;
      Element.prototype.getAttribute = () => 'checkbox';
      window.getComputedStyle = () => {
        throw new Error('patched');
      };
    });
    const again = await snapshot(hostile, { full_page: true });
    expect(again.elements.map((e) => e.name)).toEqual(snap.elements.map((e) => e.name));
  });
});
