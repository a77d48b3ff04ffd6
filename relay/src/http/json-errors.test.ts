import { describe, expect, it } from 'vitest';
import { findJsonError } from './json-errors';

// Expected positions and messages are Python's (json.loads on CPython 3.11), which FastAPI reports.
const PYTHON: [text: string, position: number, message: string][] = [
  ['{"a": }', 6, 'Expecting value'],
  ['{a:1}', 1, 'Expecting property name enclosed in double quotes'],
  ['abc', 0, 'Expecting value'],
  ['{"a":1}x', 7, 'Extra data'],
  ['{"a":1', 6, "Expecting ',' delimiter"],
  ['', 0, 'Expecting value'],
  ['   ', 3, 'Expecting value'],
  ['{"cmd": "x", }', 13, 'Expecting property name enclosed in double quotes'],
  ['[1,2', 4, "Expecting ',' delimiter"],
  ['{"a":"\\u00zz"}', 7, 'Invalid \\uXXXX escape'],
  ['nul', 0, 'Expecting value'],
  ['{"a":1}}', 7, 'Extra data'],
  ['{"a":"b\n"}', 7, 'Invalid control character at'],
  ['"abc', 0, 'Unterminated string starting at'],
  ['{"a" 1}', 5, "Expecting ':' delimiter"],
  ['[1 2]', 3, "Expecting ',' delimiter"],
  ['01', 1, 'Extra data'],
  ['-', 0, 'Expecting value'],
  ['1.', 1, 'Extra data'],
  ['1e', 1, 'Extra data'],
  ['tru', 0, 'Expecting value'],
  ['[01]', 2, "Expecting ',' delimiter"],
  ['{"a":1 x}', 7, "Expecting ',' delimiter"],
  ['{"a":1,}', 7, 'Expecting property name enclosed in double quotes'],
  ['{', 1, 'Expecting property name enclosed in double quotes'],
  ['[', 1, 'Expecting value'],
  ['[1,]', 3, 'Expecting value'],
  ['[,1]', 1, 'Expecting value'],
  ['{"a":"\\q"}', 6, 'Invalid \\escape'],
  ['{"a":"\\u12"}', 7, 'Invalid \\uXXXX escape'],
  ['["a" , ]', 7, 'Expecting value'],
  ['  {"a" :  [1, {"b": tru}]}', 20, 'Expecting value'],
  ['[1,2]]', 5, 'Extra data'],
  ['{"a":-}', 5, 'Expecting value'],
  ['{"a":1.5e}', 8, "Expecting ',' delimiter"],
  ['[true, false, null, nulL]', 20, 'Expecting value'],
  ['{"a"\n:\n1\n,\n"b" 2}', 15, "Expecting ':' delimiter"],
  ['"abc\\', 0, 'Unterminated string starting at'],
];

describe('findJsonError', () => {
  it('reports the first problem where and as Python does', () => {
    for (const [text, position, message] of PYTHON) {
      expect(findJsonError(text), JSON.stringify(text)).toEqual({ position, message });
    }
  });

  it('finds nothing wrong in valid JSON', () => {
    expect(findJsonError('{"a":"x"} ')).toBeUndefined();
    expect(findJsonError('"\\ud800"')).toBeUndefined();
    expect(findJsonError('[[[]],{}]')).toBeUndefined();
    expect(findJsonError('{"a":{"b":[1,-2.5e+3,0.1,"\\u00e9\\n"]}}')).toBeUndefined();
    expect(findJsonError('  7  ')).toBeUndefined();
  });

  it('takes a megabyte of nesting or of an unterminated string in one pass', () => {
    const deep = '['.repeat(1_000_000);
    expect(findJsonError(deep)).toEqual({ position: 1_000_000, message: 'Expecting value' });
    expect(findJsonError(`{"cmd": "${'a'.repeat(1_000_000)}`)).toEqual({
      position: 8,
      message: 'Unterminated string starting at',
    });
    expect(findJsonError(`${'[1,'.repeat(300_000)}]`)).toEqual({ position: 900_000, message: 'Expecting value' });
  });
});
