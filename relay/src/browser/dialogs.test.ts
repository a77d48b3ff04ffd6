import { describe, expect, it } from 'vitest';
import { dialogEvent, dialogPolicyFor } from './dialogs';

describe('dialogPolicyFor', () => {
  it('dismisses unless the task says to confirm, accept or agree', () => {
    expect(dialogPolicyFor('delete the draft', 'auto')).toEqual({ accept: false });
    expect(dialogPolicyFor('delete the draft and confirm', 'auto')).toEqual({ accept: true });
    expect(dialogPolicyFor('Accept the terms, then continue', 'auto')).toEqual({ accept: true });
    expect(dialogPolicyFor('click OK when asked', 'auto')).toEqual({ accept: true });
    // Words that merely contain the verbs do not count.
    expect(dialogPolicyFor('open the acceptance report', 'auto')).toEqual({ accept: false });
  });

  it('answers a prompt with the text the task quotes for it', () => {
    expect(dialogPolicyFor('click Rename and answer the prompt with "Q3 plan"', 'auto')).toEqual({
      accept: true,
      prompt_text: 'Q3 plan',
    });
    // A quoted text with no dialog named is the task's, not the prompt's.
    expect(dialogPolicyFor('search for "Q3 plan"', 'auto')).toEqual({ accept: false });
  });

  it('follows the setting when it is not auto', () => {
    expect(dialogPolicyFor('delete and confirm', 'dismiss')).toEqual({ accept: false });
    expect(dialogPolicyFor('delete the draft', 'accept')).toEqual({ accept: true });
  });
});

describe('dialogEvent', () => {
  it('says what the page asked and what it got, on one line and briefly', () => {
    expect(dialogEvent('prompt', 'Your\n  name?', true, 'Ada').message).toBe(
      'The page showed a prompt dialog: "Your name?"; it was answered with "Ada".',
    );
    expect(dialogEvent('beforeunload', '', true).message).toBe(
      'The page showed a beforeunload dialog; leaving the page was allowed.',
    );
    expect(dialogEvent('alert', 'x'.repeat(500), true).message.length).toBeLessThan(280);
  });
});
