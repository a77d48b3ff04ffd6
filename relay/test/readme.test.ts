// The README's curl examples are what newcomers paste first: each must be a request the contract accepts.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Endpoint, endpoints } from '@tandem/shared';
import { describe, expect, it } from 'vitest';

const README = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../README.md'), 'utf8');
const BASE = 'http://127.0.0.1:8787';

interface Example {
  method: string;
  path: string;
  body?: unknown;
  source: string;
}

/** A shell word: '…' is literal, "…" takes \" escapes and $TANDEM. */
function unquote(word: string): string {
  if (word.startsWith("'")) return word.slice(1, -1);
  return word.slice(1, -1).replaceAll('\\"', '"').replaceAll('$TANDEM', BASE);
}

function curlExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const [, block] of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const commands = (block ?? '').replaceAll('\\\n', ' ').split('\n');
    for (const command of commands.filter((line) => line.trimStart().startsWith('curl '))) {
      const method = /-X (\w+)/.exec(command)?.[1] ?? 'GET';
      const path = /\$TANDEM(\/[^\s"']*)/.exec(command)?.[1];
      if (!path) throw new Error(`a curl example without $TANDEM/…: ${command}`);
      const data = /-d ('[^']*'|"(?:[^"\\]|\\.)*")/.exec(command)?.[1];
      examples.push({ method, path, source: command, ...(data ? { body: JSON.parse(unquote(data)) } : {}) });
    }
  }
  return examples;
}

function endpointOf(example: Example): Endpoint | undefined {
  return (Object.values(endpoints) as Endpoint[]).find(
    (endpoint) =>
      endpoint.method === example.method.toLowerCase() &&
      new RegExp(`^${endpoint.path.replace(/:\w+/g, '[^/]+')}$`).test(example.path.split('?')[0] ?? ''),
  );
}

describe("the README's examples", () => {
  const examples = curlExamples(README);

  it('cover every endpoint of the API', () => {
    const covered = new Set(examples.map((e) => endpointOf(e)?.operationId));
    expect([...covered].sort()).toEqual((Object.values(endpoints) as Endpoint[]).map((e) => e.operationId).sort());
  });

  it('send a body the endpoint accepts: every required field, stream on step included', () => {
    for (const example of examples) {
      const endpoint = endpointOf(example);
      expect(endpoint, example.source).toBeDefined();
      if (!endpoint?.body) {
        expect(example.body, example.source).toBeUndefined();
        continue;
      }
      const parsed = endpoint.body.safeParse(example.body);
      expect(parsed.success, `${example.source}\n${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });
});
