import { describe, expect, it } from 'vitest';
import { fieldTookText, isSecretInput, pressedMessage, takesKeystrokes, typeOutcome } from './input-policy';

const field = { target: '<input "Code"> [3]', kind: 'text', asked: 'ABCDEFG', secret: false, submitted: false };

describe('the input policy', () => {
  it('tells what a field holds, a field that took nothing, and a secret by its length only', () => {
    expect(typeOutcome({ ...field, value: 'ABCD' })).toEqual({
      code: 'ok',
      message: 'Typed into <input "Code"> [3]; it now holds "ABCD".',
    });
    expect(typeOutcome({ ...field, kind: 'number', value: '' })).toEqual({
      code: 'invalid_target',
      message: '<input "Code"> [3] did not take "ABCDEFG": it is a number field and holds nothing now.',
    });
    // Submitted: an empty field after Enter is a form that cleared itself, not a refusal.
    expect(typeOutcome({ ...field, value: '', submitted: true }).code).toBe('ok');
    const secret = typeOutcome({ ...field, value: 'ABCDEFG', secret: true, submitted: true });
    expect(secret.message).toBe('Typed 7 characters into the password field and pressed Enter.');
    expect(typeOutcome({ ...field, value: 'x'.repeat(300) }).message).toContain(`"${'x'.repeat(99)}…"`);
  });

  it('decides which fields take keystrokes and which are secret', () => {
    expect(takesKeystrokes('input', undefined, false)).toBe(true);
    expect(takesKeystrokes('input', 'number', false)).toBe(true);
    expect(takesKeystrokes('input', 'date', false)).toBe(false);
    expect(takesKeystrokes('div', undefined, true)).toBe(true);
    expect(takesKeystrokes('textarea', undefined, false)).toBe(true);
    expect(isSecretInput('input', 'password')).toBe(true);
    expect(isSecretInput('input', 'text')).toBe(false);
  });

  it('sees a reformatted value as taken, a swallowed one as not', () => {
    expect(fieldTookText('4111 1111 1111 1111', '4111111111111111')).toBe(true);
    expect(fieldTookText('', '42')).toBe(false);
    expect(pressedMessage('Enter', '<input "q"> [2]')).toBe('Pressed Enter on <input "q"> [2].');
    expect(pressedMessage('Control+a', undefined)).toBe('Pressed Control+a.');
  });
});
