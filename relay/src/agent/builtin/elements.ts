import type { SnapshotElement } from '@tandem/shared';
import type { TargetKind } from './substeps';

const TEXT_INPUTS = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
]);
const CHECK_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

const typeOf = (e: SnapshotElement) => (e.attributes.type ?? 'text').toLowerCase();

/** A field that takes typed text. */
export function isTypeable(e: SnapshotElement): boolean {
  if (e.states.disabled || e.states.readonly) return false;
  if (e.tag === 'textarea' || e.attributes.contenteditable !== undefined) return true;
  if (e.role === 'textbox' || e.role === 'searchbox') return true;
  return e.tag === 'input' && TEXT_INPUTS.has(typeOf(e));
}

/** A native <select>. */
export const isNativeSelect = (e: SnapshotElement) => e.tag === 'select';

/** A checkbox, radio button or switch (native or ARIA). */
export function isCheckable(e: SnapshotElement): boolean {
  if (e.tag === 'input' && (typeOf(e) === 'checkbox' || typeOf(e) === 'radio')) return true;
  return CHECK_ROLES.has(e.role ?? '');
}

/** Something that opens a list of choices when clicked. */
export function isDropdownToggle(e: SnapshotElement): boolean {
  return e.role === 'combobox' || (e.attributes['aria-haspopup'] ?? 'false') !== 'false';
}

/** A search field: type=search, role=searchbox, or labelled as one. */
export function isSearchField(e: SnapshotElement): boolean {
  if (!isTypeable(e)) return false;
  if (typeOf(e) === 'search' || e.role === 'searchbox') return true;
  const label = [e.name, e.attributes.placeholder, e.attributes.name, e.attributes['aria-label'], e.attributes.title]
    .join(' ')
    .toLowerCase();
  return /\b(?:search|find|query|q|keywords?)\b/.test(label);
}

export const isPassword = (e: SnapshotElement) => e.tag === 'input' && typeOf(e) === 'password';

/** A submit button: type=submit, or a button whose label says it sends a form. */
export function isSubmit(e: SnapshotElement): boolean {
  if ((e.tag === 'button' || e.tag === 'input') && typeOf(e) === 'submit' && e.attributes.type !== undefined)
    return true;
  return false;
}

/** Whether the element is the kind the instruction named (a hint that raises its score). */
export function kindMatches(e: SnapshotElement, kind: TargetKind): boolean {
  const role = e.role ?? '';
  switch (kind) {
    case 'button':
      return (
        e.tag === 'button' || role === 'button' || (e.tag === 'input' && /^(?:submit|button|reset)$/.test(typeOf(e)))
      );
    case 'link':
      return e.tag === 'a' || role === 'link';
    case 'tab':
      return role === 'tab';
    case 'menuitem':
      return role.startsWith('menuitem');
    case 'checkbox':
    case 'radio':
      return isCheckable(e);
    case 'option':
      return role === 'option' || role.startsWith('menuitem');
    case 'field':
      return isTypeable(e) || isNativeSelect(e);
    case 'dropdown':
      return isNativeSelect(e) || isDropdownToggle(e);
    case 'section':
      return e.states.expanded !== undefined || e.tag === 'summary';
    case 'result':
      return e.tag === 'a';
    case 'slider':
      return isSlider(e);
    case 'icon':
      return isIcon(e);
  }
}

/** A slider: role=slider, a range input, or an unnamed handle whose class says so (jQuery UI and the like). */
export function isSlider(e: SnapshotElement): boolean {
  if (e.role === 'slider' || (e.tag === 'input' && typeOf(e) === 'range')) return true;
  return /\bslider\b/.test(e.attributes.hint ?? '');
}

/** An icon: an image-like control with no text of its own (a trash can, a star, a close cross). */
export function isIcon(e: SnapshotElement): boolean {
  if (e.text.trim() !== '' && e.tag !== 'img') return false;
  return e.tag === 'img' || e.tag === 'svg' || e.tag === 'i' || e.tag === 'span' || e.attributes.hint !== undefined;
}

/** Input types for dates and times, whose value has a fixed format. */
const DATE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week']);
export const isDateField = (e: SnapshotElement) => e.tag === 'input' && DATE_TYPES.has(typeOf(e));

/** Something a person would call a button: a button, a submit input, or a clickable with role=button. */
export function isButtonLike(e: SnapshotElement): boolean {
  return kindMatches(e, 'button');
}
