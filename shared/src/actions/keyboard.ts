import { z } from 'zod';
import { defineAction, ElementIndex } from './define';

/** Named keys the agent may press; single printable characters are accepted too. */
export const NamedKey = z
  .enum([
    'Enter',
    'Tab',
    'Escape',
    'Backspace',
    'Delete',
    'Space',
    'ArrowUp',
    'ArrowDown',
    'ArrowLeft',
    'ArrowRight',
    'Home',
    'End',
    'PageUp',
    'PageDown',
  ])
  .describe('A named key.');
export type NamedKey = z.infer<typeof NamedKey>;

export const KeyModifier = z.enum(['Control', 'Shift', 'Alt', 'Meta']).describe('A modifier key held down.');
export type KeyModifier = z.infer<typeof KeyModifier>;

/** Presses one key, optionally with modifiers, on the focused element or on an element by index. */
export const pressKey = defineAction({
  name: 'press_key',
  executor: 'runtime',
  description: 'Press a key (Enter, Tab, Escape, arrows...) with optional modifiers, like Control+a.',
  shape: {
    key: z
      .union([NamedKey, z.string().length(1).describe('A single printable character, e.g. "a".')])
      .describe('The key to press.'),
    modifiers: z.array(KeyModifier).default([]).describe('Modifier keys held while pressing, e.g. ["Control"].'),
    index: ElementIndex.optional().describe('Element to focus first; omit to press on the focused element.'),
  },
});

/** Moves keyboard focus to an element without clicking it. */
export const focus = defineAction({
  name: 'focus',
  executor: 'runtime',
  description: 'Give an element keyboard focus without clicking it.',
  shape: { index: ElementIndex },
});

export const keyboardActions = [pressKey, focus] as const;
