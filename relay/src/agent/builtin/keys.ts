import type { KeyModifier } from '@tandem/shared';

const KEYS: Record<string, string> = {
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  escape: 'Escape',
  esc: 'Escape',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  space: 'Space',
  spacebar: 'Space',
  'space bar': 'Space',
  up: 'ArrowUp',
  'arrow up': 'ArrowUp',
  'up arrow': 'ArrowUp',
  down: 'ArrowDown',
  'arrow down': 'ArrowDown',
  'down arrow': 'ArrowDown',
  left: 'ArrowLeft',
  'arrow left': 'ArrowLeft',
  'left arrow': 'ArrowLeft',
  right: 'ArrowRight',
  'arrow right': 'ArrowRight',
  'right arrow': 'ArrowRight',
  home: 'Home',
  end: 'End',
  'page up': 'PageUp',
  pageup: 'PageUp',
  pgup: 'PageUp',
  'page down': 'PageDown',
  pagedown: 'PageDown',
  pgdn: 'PageDown',
};

const MODIFIERS: Record<string, KeyModifier> = {
  ctrl: 'Control',
  control: 'Control',
  shift: 'Shift',
  alt: 'Alt',
  option: 'Alt',
  cmd: 'Meta',
  command: 'Meta',
  meta: 'Meta',
};

/** "ctrl+a", "Shift Tab", "the escape key", "Enter" → the key and its modifiers; undefined if it is no key. */
export function parseKey(text: string): { key: string; modifiers: KeyModifier[] } | undefined {
  // The longest key combination ("the control shift page down key on your keyboard") is far shorter.
  if (text.length > 80) return undefined;
  const cleaned = text
    .toLowerCase()
    .replace(/^the\s+/, '')
    .replace(/\s+(?:key|button|keys)$/, '')
    .replace(/\s+on (?:the|your) keyboard$/, '')
    .trim();
  if (KEYS[cleaned]) return { key: KEYS[cleaned], modifiers: [] };
  const parts = cleaned.split(/\s*\+\s*|\s*-\s*|\s+plus\s+|\s+/).filter(Boolean);
  if (parts.length < 2) return cleaned.length === 1 ? { key: cleaned, modifiers: [] } : undefined;
  const modifiers: KeyModifier[] = [];
  for (const part of parts.slice(0, -1)) {
    const modifier = MODIFIERS[part];
    if (!modifier) return undefined;
    modifiers.push(modifier);
  }
  const last = parts.at(-1)!;
  const key = KEYS[last] ?? (last.length === 1 ? last : undefined);
  return key ? { key, modifiers } : undefined;
}
