import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI_CODES } from '../../src/cli/codes.js';
import { CODES } from '../../src/core/diagnostics.js';
import { LOADER_PRECEDENCE } from '../../src/core/manifest/index.js';
import { ROOT } from '../helpers/paths.js';

describe('docs/codes.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'codes.md'), 'utf8');
  const headings = new Set([...doc.matchAll(/^### ([A-Z0-9_]+)$/gm)].map((m) => m[1]));
  // The library's catalogue and the codes only the command line reports.
  const codes: Record<string, unknown> = { ...CODES, ...CLI_CODES };
  for (const code of Object.keys(codes)) {
    it(`documents ${code}`, () => assert.ok(headings.has(code), `add a "### ${code}" section to docs/codes.md`));
  }
  it('documents no code that does not exist', () => {
    const stale = [...headings].filter((h) => !(h !== undefined && h in codes));
    assert.deepEqual(stale, []);
  });
});

/**
 * A code a page names must be one skillctl reports: a renamed or invented code in the docs sends
 * a user (or a script matching on it) looking for something that never comes. Codes are what
 * looks like one: `UPPER_SNAKE` in backticks, after a severity in sample output, or a JSON "code".
 */
describe('codes named in docs/commands and docs/formats', () => {
  const known = new Set<string>([...Object.keys(CODES), ...Object.keys(CLI_CODES), ...LOADER_PRECEDENCE]);
  // Upper-snake names that are not codes: variables, constants, open(2) flags and rlimits the pages mention.
  const NOT_CODES = new Set(['CURL_CA_BUNDLE', 'FORCE_COLOR', 'GIT_INDEX_FILE', 'HTTP_PROXY', 'HTTPS_PROXY', 'LC_ALL', 'MAX_METERED_CODE_BYTES', 'MAX_MODULE_BYTES', 'MIN_SIGNERS', 'NODE_EXTRA_CA_CERTS', 'NODE_USE_ENV_PROXY', 'NO_COLOR', 'O_APPEND', 'O_EXCL', 'REQUESTS_CA_BUNDLE', 'RLIMIT_NPROC', 'SKILLCTL_CWD', 'SKILLCTL_HOOK_NO_BASE', 'SKILLCTL_MCP_TOKEN', 'SKILLCTL_REGISTRY', 'SKILLCTL_THREADS', 'SSL_CERT_FILE']);
  const SHAPE = '[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+';
  const patterns = [new RegExp(`\`(${SHAPE})\``, 'g'), new RegExp(`\\b(?:error|warning|info) +(${SHAPE})\\b`, 'g'), new RegExp(`"(?:code|error_code)": *"(${SHAPE})"`, 'g')];
  for (const dir of ['commands', 'formats']) {
    for (const page of readdirSync(join(ROOT, 'docs', dir)).filter((f) => f.endsWith('.md')).sort()) {
      it(`docs/${dir}/${page} names only codes that exist`, () => {
        const text = readFileSync(join(ROOT, 'docs', dir, page), 'utf8');
        const named = new Set(patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1] as string)));
        assert.deepEqual([...named].filter((c) => !known.has(c) && !NOT_CODES.has(c)).sort(), []);
      });
    }
  }
  it('the list of names that are not codes holds no code', () => {
    assert.deepEqual([...NOT_CODES].filter((c) => known.has(c)), []);
  });
});
