// The `url` format is ajv-formats' language, decided in linear time: its regular expression
// backtracked for minutes on `http://` and 100 KB of `::` (a payload, an agent's input or a
// skill's output checked against a schema asking for a `url`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { compileSchema } from '../../../src/core/json-schema/index.js';
import { isUrl } from '../../../src/core/json-schema/url-format.js';
import { seeded } from '../../helpers/seeded.js';

const ORIGINAL = fullFormats.url as RegExp;

const PIECES = ['a', 'Z', 'x-y', '0', '1', '9', '10', '127', '169', '254', '172', '16', '192', '168', '223', '255', '.', '-', ':', '/', '@', '?', '#', ' ', '\t', '\u00a0', '\u3000', 'é', '\u00a1', '\u{1f600}', '\ud800', 'com', 'org', '80', '8080', '123456', '%20'];
const LABELS = ['a', 'Z', 'x-y', 'x--y', '-a', 'é', '0', '1', '10', '127', '169', '254', '172', '16', '31', '192', '168', '223', '224', '255', '256', '\u{1f600}', '\ud800', 'com', 'k'];
const STARTS = ['http://', 'https://', 'ftp://', 'HTTP://', 'http:/', 'ftps://', ''];

describe('the url format', () => {
  it('answers as ajv-formats does on generated strings', () => {
    const next = seeded(20261201);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const some = (xs: readonly string[], max: number, sep = ''): string => Array.from({ length: Math.floor(next() * (max + 1)) }, () => pick(xs)).join(sep);
    let urls = 0;
    for (let k = 0; k < 100_000; k++) {
      // Users, a host of labels, a port, a path; a fifth of them with a piece put in anywhere.
      let s = pick(STARTS);
      for (let u = Math.floor(next() * 3); u > 0; u--) s += `${some(PIECES, 3)}@`;
      s += some(LABELS, 4, '.') + (next() < 0.5 ? `.${pick(['com', 'co', 'x', '1', 'é', ''])}` : '');
      if (next() < 0.3) s += `:${pick(['', '8', '80', '8080', '65535', '123456', 'a'])}`;
      if (next() < 0.4) s += `/${some(PIECES, 3)}`;
      if (next() < 0.2) s = s.slice(0, Math.floor(next() * s.length)) + pick(PIECES) + s.slice(Math.floor(next() * s.length));
      const want = ORIGINAL.test(s);
      if (want) urls++;
      assert.equal(isUrl(s), want, JSON.stringify(s));
    }
    for (const s of ['http://example.com', 'http://u:p@example.com:8080/a b', 'http://u:p@example.com:8080/a', 'http://a@b@example.com/x', 'http://10.0.0.1/', 'http://11.0.0.1/', 'http://example.com:1', 'ftp://ex-ample.co.uk/', 'http://a b@example.com']) {
      assert.equal(isUrl(s), ORIGINAL.test(s), s);
    }
    assert.ok(urls > 1_000, `the generated strings hold urls too (${urls})`);
  });

  it('decides 400,000 characters of user part at once, through a compiled schema (ajv-formats: hours)', async () => {
    const c = await compileSchema({ type: 'string', format: 'url' }, { validateSchema: false });
    if ('error' in c) assert.fail(c.error.message);
    for (const body of ['::', 'a:@', ':@', 'a@', '@a.', 'a.']) {
      const t0 = performance.now();
      assert.equal(c.check(`http://${body.repeat(200_000)} `).length, 1, body);
      assert.ok(performance.now() - t0 < 5_000, 'a hang guard, not a speed figure');
    }
    assert.deepEqual(c.check('https://example.com/a'), []);
  });
});
