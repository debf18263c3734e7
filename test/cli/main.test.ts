import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

describe('global options', () => {
  it('--version and -V print the package version', () => {
    for (const flag of ['--version', '-V']) {
      const r = skillctl([flag]);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, `${pkg.version}\n`);
    }
  });

  it('--json --version prints one object: the name, the version and the Node.js that runs it', () => {
    for (const args of [['--json', '--version'], ['-V', '--json']]) {
      const r = skillctl(args);
      assert.equal(r.code, 0);
      assert.equal(r.stderr, '');
      assert.equal(r.stdout, `${JSON.stringify({ name: 'skillctl', version: pkg.version, node: process.version }, null, 2)}\n`);
    }
  });

  it('--help lists commands, global options, examples and exit codes', () => {
    const r = skillctl(['--help']);
    assert.equal(r.code, 0);
    for (const text of ['validate', '--json', '--no-color', '--quiet', '--debug', 'Examples:', 'Exit status']) assert.ok(r.stdout.includes(text), text);
    const sub = skillctl(['validate', '--help']);
    assert.equal(sub.code, 0);
    assert.match(sub.stdout, /Examples:/);
    assert.match(sub.stdout, /--json/);
  });

  it('an unknown command or option is a usage error, exit 2', () => {
    assert.equal(skillctl(['frobnicate']).code, 2);
    const r = skillctl(['validate', '--frobnicate']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown option/);
  });

  it('with --json, a usage error is a JSON error document on stdout', () => {
    const r = skillctl(['validate', '--json', '--format', 'xml']);
    assert.equal(r.code, 2);
    const doc = json<{ error: { code: string; message: string } }>(r);
    assert.equal(doc.error.code, 'USAGE');
    assert.match(doc.error.message, /xml/);
  });

  it('an option given an empty value is a usage error, never "the working directory" or a silent default', () => {
    for (const args of [
      ['registry', 'list', '--registry', ''],
      ['skill', '--packs', ''],
      ['skill', '--max-chars='],
      ['run', 'fs.read_text', '--policy', ' '],
      ['mcp', '--approve', 'all', '--approve', ''],
    ]) {
      const r = skillctl([...args, '--json'], { input: '' });
      assert.equal(r.code, 2, args.join(' '));
      const doc = json<{ error: { code: string; message: string } }>(r);
      assert.equal(doc.error.code, 'USAGE');
      assert.match(doc.error.message, /needs a non-empty value/);
    }
    assert.match(skillctl(['registry', 'list', '--registry', '']).stderr, /--registry <dir>' needs a non-empty value/);
  });
});
