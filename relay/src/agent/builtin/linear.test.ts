/**
 * Every parser of user text in the built-in planner runs in linear time: each one gets a megabyte of
 * text shaped to make backtracking regular expressions blow up (long runs of spaces, unclosed quotes,
 * endless lists, separators, digits, words without spaces). A super-linear parser would take minutes
 * or hours on these; a linear one takes well under a second, so the generous per-test timeout only
 * catches the former and never a busy machine.
 */
import { describe, expect, it } from 'vitest';
import { excerpt } from '../quote';
import { answerQuestion, questionParts } from './answer';
import { el, page } from './fake-page';
import { type ClauseInput, listTargets, parseTarget } from './grammar';
import { parseKey } from './keys';
import { findElement, rankElements } from './match';
import { understandQuestion } from './messages';
import { parseInstruction } from './parse';
import * as forms from './parse-forms';
import * as navigation from './parse-navigation';
import * as pointer from './parse-pointer';
import * as questions from './parse-question';
import { rephrase } from './rephrase';
import { protect, type Slot, splitClauses, stripPolite } from './split';
import { containsWords, normalize, textScore } from './text';

const MB = 1 << 20;
const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);

/** Shapes that make backtracking expressions (\s*,?\s*, (.+?)\s+x, [^"]*" ...) go quadratic or worse. */
const HOSTILE: [string, string][] = [
  ['spaces between two words', `type a${' '.repeat(MB)}b`],
  ['tabs and line breaks', fill(' \t\n\u00a0')],
  ['one endless word', fill('a')],
  ['dots between letters', fill('a.')],
  ['digits', fill('1')],
  ['unclosed straight quotes', fill('"a')],
  ['unclosed curly quotes', fill('“a ')],
  ['apostrophes', fill("'a ")],
  ['commas', fill(', ')],
  ['a list joined by and', fill('click a and ')],
  ['sequence words', fill('and then ')],
  ['courtesy words', fill('please ')],
  ['trailing courtesy', `click a${fill(' please,')}x`],
  ['menu paths', fill('a > ')],
  ['means clauses', fill('by clicking ')],
  ['purpose clauses', fill('click x to delete it ')],
  ['field and value words', fill('the username into the ')],
  ['slider words', fill('select 1 with the ')],
  ['password words', fill('log in with password ')],
  ['ordinals', fill('the 2nd ')],
  ['question words', fill('what is the price of ')],
  ['close glyphs', fill('× ')],
];

const clauseOf = (text: string): ClauseInput => ({ head: text, items: [text], raw: text, question: true, slots: [] });
const PARSERS = Object.entries({ ...forms, ...navigation, ...pointer, ...questions }).filter(
  ([name, value]) => name.startsWith('parse') && typeof value === 'function',
) as [string, (clause: ClauseInput) => unknown][];

/** Far above what a linear parser needs on a busy machine; far below what a quadratic one would. */
const TIMEOUT = 60_000;

describe('every parser of user text runs in linear time on a megabyte of hostile text', () => {
  it.each(HOSTILE)(
    'split: %s',
    (_, text) => {
      const slots: Slot[] = [];
      const protectedText = protect(text, slots);
      const clauses = splitClauses(protectedText, () => true);
      expect(Array.isArray(clauses)).toBe(true);
      expect(typeof stripPolite(text)).toBe('string');
    },
    TIMEOUT,
  );

  it.each(HOSTILE)(
    'the whole parse: %s',
    (_, text) => {
      const steps = parseInstruction(text);
      expect(Array.isArray(steps)).toBe(true);
      // What the user is told quotes a short excerpt, never the whole command.
      expect(understandQuestion(text).length).toBeLessThan(1_000);
    },
    TIMEOUT,
  );

  it.each(HOSTILE)(
    'grammar and clause parsers: %s',
    (_, text) => {
      const clause = clauseOf(text);
      expect(parseTarget(clause, text)).toHaveProperty('text');
      expect(Array.isArray(listTargets(clause, text))).toBe(true);
      expect(rephrase(clause)).toHaveProperty('head');
      parseKey(text);
      for (const [, parse] of PARSERS) parse(clause);
    },
    TIMEOUT,
  );

  it.each(HOSTILE)(
    'matching against a page: %s',
    (_, text) => {
      const snapshot = page([el(1, 'button', 'Submit'), el(2, 'input', 'Username'), el(3, 'a', 'Next page')], text);
      findElement(snapshot, { text });
      rankElements(snapshot, { text, kind: 'button', ordinal: 2 });
      textScore(text, 'Username');
      containsWords(text, text.slice(0, 1_000));
      normalize(text);
      questionParts(text);
      answerQuestion(text, snapshot);
      expect(excerpt(text).length).toBeLessThanOrEqual(80);
    },
    TIMEOUT,
  );
});
