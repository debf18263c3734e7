// exitCodeFor(result): a pure function of the result, the same table for every command.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diag } from '../../src/core/diagnostics.js';
import { EXIT, exitCodeFor } from '../../src/cli/exit.js';

describe('exitCodeFor', () => {
  const cases: [string, Parameters<typeof exitCodeFor>[0], number][] = [
    ['no finding', { diagnostics: [] }, EXIT.ok],
    ['warnings only', { diagnostics: [diag('CONTENT_DIGEST_MISSING', 'w', { severity: 'warning' })] }, EXIT.ok],
    ['a finding', { diagnostics: [diag('MANIFEST_DIGEST_MISMATCH', 'x')] }, EXIT.findings],
    ['usage wins over findings', { diagnostics: [diag('MANIFEST_DIGEST_MISMATCH', 'x'), diag('INPUT_NOT_FOUND', 'y')] }, EXIT.usage],
    ['a result that is not ok, without an error', { ok: false, diagnostics: [] }, EXIT.findings],
    ['a result that is not ok, with a usage error', { ok: false, diagnostics: [diag('USAGE', 'u')] }, EXIT.usage],
    ['an ok result', { ok: true, diagnostics: [] }, EXIT.ok],
  ];
  for (const [name, result, code] of cases) it(name, () => assert.equal(exitCodeFor(result), code));
});
