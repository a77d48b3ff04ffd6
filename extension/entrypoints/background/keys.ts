import type { NamedKey } from '@tandem/shared';

/** What `Input.dispatchKeyEvent` needs to press one key like a keyboard does. */
export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  /** The character the key types, if any (Enter types "\r", which submits forms). */
  text?: string;
}

const NAMED: Record<NamedKey, KeyDefinition> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
};

/** A named key, or a single character (letters and digits get their physical key code). */
export function keyDefinition(key: string): KeyDefinition {
  const named = NAMED[key as NamedKey];
  if (named) return named;
  const upper = key.toUpperCase();
  if (/^[A-Z]$/.test(upper)) return { key, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: key };
  if (/^[0-9]$/.test(key)) return { key, code: `Digit${key}`, keyCode: key.charCodeAt(0), text: key };
  return { key, code: '', keyCode: 0, text: key };
}

/** CDP modifier bits: Alt 1, Control 2, Meta 4, Shift 8. */
export const MODIFIER_BITS: Record<'Alt' | 'Control' | 'Meta' | 'Shift', number> = {
  Alt: 1,
  Control: 2,
  Meta: 4,
  Shift: 8,
};
