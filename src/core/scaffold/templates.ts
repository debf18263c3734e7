/**
 * Starter scripts for `skillctl init`: each reads the JSON request on stdin and writes a JSON
 * result on stdout (the process-runtime protocol of skillctl run), and really does what its
 * schemas say, so the new skill runs as generated.
 */
import type { ScriptRuntime } from '../agent-skills/index.js';
import type { JsonSchema } from '../manifest/index.js';

export interface ScriptTemplate {
  readonly path: string;
  readonly executable: boolean;
  readonly text: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  readonly argsFingerprint: readonly string[];
  readonly resultFingerprint: readonly string[];
  /** One line for SKILL.md: what to send and what comes back. */
  readonly usage: string;
}

const TEXT_INPUT: JsonSchema = {
  type: 'object',
  properties: { text: { type: 'string', description: 'The text to work on.' } },
  required: ['text'],
  additionalProperties: false,
};

const NORMALISED_OUTPUT: JsonSchema = {
  type: 'object',
  properties: { result: { type: 'string', description: 'The text with runs of whitespace collapsed to one space.' } },
  required: ['result'],
};

const PYTHON = `#!/usr/bin/env python3
"""Reads a JSON request {"text": ...} on stdin; writes {"result": ...} on stdout."""
import json
import sys


def main() -> int:
    request = json.load(sys.stdin)
    result = " ".join(request["text"].split())
    json.dump({"result": result}, sys.stdout)
    sys.stdout.write("\\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
`;

const NODE = `#!/usr/bin/env node
// Reads a JSON request {"text": ...} on stdin; writes {"result": ...} on stdout.
let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const request = JSON.parse(input);
const result = request.text.split(/\\s+/).filter((w) => w !== '').join(' ');
process.stdout.write(JSON.stringify({ result }) + '\\n');
`;

const SHELL = `#!/usr/bin/env bash
# Reads a JSON request on stdin; writes {"bytes": N}, the size of the request, on stdout.
set -euo pipefail
n=$(wc -c | tr -d ' ')
printf '{"bytes": %s}\\n' "$n"
`;

export function scriptTemplate(runtime: ScriptRuntime): ScriptTemplate {
  switch (runtime) {
    case 'python':
      return {
        path: 'scripts/main.py',
        executable: true,
        text: PYTHON,
        inputSchema: TEXT_INPUT,
        outputSchema: NORMALISED_OUTPUT,
        argsFingerprint: ['input.text'],
        resultFingerprint: ['result.result'],
        usage: 'Run `python3 scripts/main.py` with a JSON request `{"text": "..."}` on stdin; it prints `{"result": "..."}`, the text with whitespace collapsed.',
      };
    case 'node':
      return {
        path: 'scripts/main.mjs',
        executable: true,
        text: NODE,
        inputSchema: TEXT_INPUT,
        outputSchema: NORMALISED_OUTPUT,
        argsFingerprint: ['input.text'],
        resultFingerprint: ['result.result'],
        usage: 'Run `node scripts/main.mjs` with a JSON request `{"text": "..."}` on stdin; it prints `{"result": "..."}`, the text with whitespace collapsed.',
      };
    case 'shell':
      return {
        path: 'scripts/main.sh',
        executable: true,
        text: SHELL,
        inputSchema: TEXT_INPUT,
        outputSchema: {
          type: 'object',
          properties: { bytes: { type: 'integer', minimum: 0, description: 'Size of the request in bytes.' } },
          required: ['bytes'],
        },
        argsFingerprint: ['input.text'],
        resultFingerprint: ['result.bytes'],
        usage: 'Run `scripts/main.sh` with a JSON request `{"text": "..."}` on stdin; it prints `{"bytes": N}`, the size of the request.',
      };
    default: {
      const never: never = runtime;
      return never;
    }
  }
}
