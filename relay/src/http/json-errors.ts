/** Where a JSON text first goes wrong, in the words and offsets of Python's `json` module. */
export interface JsonSyntaxError {
  /** Offset of the problem in the text (what pydantic puts in the 422's `loc`). */
  position: number;
  message: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9a-fA-F]{4}$/;

const EXPECTING_VALUE = 'Expecting value';
const EXPECTING_NAME = 'Expecting property name enclosed in double quotes';
const EXPECTING_COMMA = "Expecting ',' delimiter";

class Found extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Finds the first syntax error in `text` as FastAPI reports a body that is not JSON: Python's error
 * message and character offset (`Expecting value` at 6 for `{"a": }`), which V8's messages do not
 * always give. Undefined when the text is valid JSON. One pass with an explicit stack: linear in the
 * length and safe for any nesting depth.
 */
export function findJsonError(text: string): JsonSyntaxError | undefined {
  try {
    scan(text);
    return undefined;
  } catch (error) {
    if (error instanceof Found) return { position: error.position, message: error.message };
    throw error;
  }
}

function scan(text: string): void {
  let i = 0;
  const skip = () => {
    while (i < text.length && WHITESPACE.has(text[i] as string)) i++;
  };
  /** Open containers, innermost last. */
  const stack: ('object' | 'array')[] = [];

  /** Reads one value at `i`; pushes a container and returns false when the value is one that was opened. */
  const value = (): boolean => {
    const ch = text[i];
    if (ch === '"') {
      string();
      return true;
    }
    if (ch === '{') {
      i++;
      skip();
      if (text[i] === '}') {
        i++;
        return true;
      }
      stack.push('object');
      member();
      return false;
    }
    if (ch === '[') {
      i++;
      skip();
      if (text[i] === ']') {
        i++;
        return true;
      }
      stack.push('array');
      return false;
    }
    const word = ch === 'n' ? 'null' : ch === 't' ? 'true' : ch === 'f' ? 'false' : undefined;
    if (word && text.startsWith(word, i)) {
      i += word.length;
      return true;
    }
    if (!number()) throw new Found(i, EXPECTING_VALUE);
    return true;
  };

  /** A member's name and colon; the value follows. */
  const member = () => {
    if (text[i] !== '"') throw new Found(i, EXPECTING_NAME);
    string();
    skip();
    if (text[i] !== ':') throw new Found(i, "Expecting ':' delimiter");
    i++;
    skip();
  };

  const string = () => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) throw new Found(start, 'Unterminated string starting at');
      const ch = text[i] as string;
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        const escaped = text[i + 1];
        if (escaped === 'u') {
          if (!HEX.test(text.slice(i + 2, i + 6))) throw new Found(i + 1, 'Invalid \\uXXXX escape');
          i += 6;
          continue;
        }
        if (escaped === undefined || !ESCAPES.has(escaped)) {
          if (escaped === undefined) throw new Found(start, 'Unterminated string starting at');
          throw new Found(i, 'Invalid \\escape');
        }
        i += 2;
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) throw new Found(i, 'Invalid control character at');
      i++;
    }
  };

  /** Python's number: -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?, each optional part taken only when whole. */
  const number = (): boolean => {
    const digits = (at: number) => {
      let end = at;
      while (end < text.length && text[end]! >= '0' && text[end]! <= '9') end++;
      return end;
    };
    let at = text[i] === '-' ? i + 1 : i;
    if (text[at] === '0') at++;
    else if (text[at]! >= '1' && text[at]! <= '9') at = digits(at);
    else return false;
    if (text[at] === '.' && digits(at + 1) > at + 1) at = digits(at + 1);
    if (text[at] === 'e' || text[at] === 'E') {
      const sign = text[at + 1] === '+' || text[at + 1] === '-' ? at + 2 : at + 1;
      if (digits(sign) > sign) at = digits(sign);
    }
    i = at;
    return true;
  };

  skip();
  let done = value();
  for (;;) {
    if (done) {
      // A value ended: close containers or go on to the next element.
      const open = stack.at(-1);
      if (open === undefined) break;
      skip();
      const close = open === 'object' ? '}' : ']';
      if (text[i] === close) {
        i++;
        stack.pop();
        continue;
      }
      if (text[i] !== ',') throw new Found(i, EXPECTING_COMMA);
      i++;
      skip();
      if (open === 'object') member();
    }
    skip();
    done = value();
  }
  skip();
  if (i < text.length) throw new Found(i, 'Extra data');
}
