import { z } from 'zod';
import { defineAction, ElementIndex } from './define';

/** Clicks an element (links, buttons, tabs, menu items, custom controls). */
export const click = defineAction({
  name: 'click',
  executor: 'runtime',
  description: 'Click an element by its index (link, button, tab, menu item, option, any clickable element).',
  shape: {
    index: ElementIndex,
    double: z.boolean().default(false).describe('true for a double click.'),
  },
});

/** Moves the pointer over an element, for menus and tooltips that open on hover. */
export const hover = defineAction({
  name: 'hover',
  executor: 'runtime',
  description: 'Move the mouse over an element, e.g. to open a menu that appears on hover.',
  shape: { index: ElementIndex },
});

/** Scrolls the page, or a scrollable element, by a number of screens. */
export const scroll = defineAction({
  name: 'scroll',
  executor: 'runtime',
  description: 'Scroll the page, or one scrollable element, up or down by a number of screen heights.',
  shape: {
    index: ElementIndex.optional().describe(
      'Index of the element to scroll (or an element inside it); omit to scroll the whole page.',
    ),
    direction: z.enum(['up', 'down']).describe('Which way to scroll.'),
    amount: z
      .number()
      .positive()
      .max(10)
      .default(1)
      .describe('How far, in screen heights of the scrolled area (1 = one page, 0.5 = half a page).'),
  },
});

export const pointerActions = [click, hover, scroll] as const;
