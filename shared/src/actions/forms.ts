import { z } from 'zod';
import { defineAction, ElementIndex } from './define';

/** Types text into an input, textarea or editable element. */
export const type = defineAction({
  name: 'type',
  executor: 'runtime',
  description: 'Type text into a text field, textarea or editable area.',
  shape: {
    index: ElementIndex,
    text: z.string().describe('The text to type.'),
    clear: z.boolean().default(true).describe('true replaces what the field holds; false appends to it.'),
    submit: z.boolean().default(false).describe('true presses Enter afterwards (submits a search or a form).'),
  },
});

/** Picks an option of a select, listbox or combobox. */
export const selectOption = defineAction({
  name: 'select_option',
  executor: 'runtime',
  description: 'Choose an option of a dropdown (<select>, listbox or combobox) by its visible text or value.',
  shape: {
    index: ElementIndex,
    option: z.string().describe('Visible text of the option to choose (its value also matches).'),
  },
});

/** Sets a checkbox, radio button or switch. */
export const check = defineAction({
  name: 'check',
  executor: 'runtime',
  description: 'Tick or untick a checkbox or switch, or choose a radio button.',
  shape: {
    index: ElementIndex,
    checked: z.boolean().default(true).describe('true to tick or choose it, false to untick it.'),
  },
});

export const formActions = [type, selectOption, check] as const;
