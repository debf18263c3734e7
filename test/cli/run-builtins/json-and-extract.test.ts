/**
 * The two skills that need nothing from the host: they run under a policy that grants nothing,
 * use no capability (the audit record says so), and are bounded by the output cap alone.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { BuiltinProject, expectOk, expectSchemaFindings, expectSkillError, type Ran } from '../../helpers/builtin-cli.js';
import { makePdf } from '../../helpers/pdf.js';

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');

describe('skillctl run json.validate and extract.text', () => {
  const p = new BuiltinProject('skillctl-e2e-pure-');
  let nothing: string;

  before(async () => {
    nothing = await p.policy({ permissions: {} });
  });

  async function usedNothing(ran: Ran): Promise<void> {
    const rec = await p.record(ran);
    assert.deepEqual([rec.policy.decision, rec.policy.capabilities.granted, rec.policy.capabilities.used], ['allow', [], []]);
  }

  it("json.validate answers the seed's example request with the seed's response", async () => {
    const r = await p.plain('json.validate', { json: '{"a": 1}', schema: { type: 'object' } }, { policy: nothing });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { valid: true, errors: [] });
    const bad = await p.run('json.validate', { json: '{"a": "x", "b": 1}', schema: { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false } }, { policy: nothing });
    const out = expectOk<{ valid: boolean; errors: { pointer: string }[] }>(bad);
    assert.deepEqual([out.valid, out.errors.map((e) => e.pointer).sort()], [false, ['/a', '/b']]);
    await usedNothing(bad);
  });

  it('json.validate: a schema that cannot be compiled is a skill error; bad requests give schema findings', async () => {
    expectSkillError(await p.run('json.validate', { json: '{}', schema: { type: 'nonsense' } }, { policy: nothing }), 'SCHEMA_UNCOMPILABLE');
    await expectSchemaFindings(p, await p.run('json.validate', { json: 5 }, { policy: nothing }), ['/json', '/schema']);
    await expectSchemaFindings(p, await p.run('json.validate', { json: '{}', schema: 'object' }, { policy: nothing }), ['/schema']);
  });

  it("extract.text answers the seed's example requests: HTML, Markdown and PDF", async () => {
    const html = '<html><head><title>The Guide</title><script>alert(1)</script></head><body><h1>Start</h1><p>Install &amp; run.</p><h2>Use</h2></body></html>';
    const r = await p.plain('extract.text', { content_type: 'text/html', bytes_b64: b64(html) }, { policy: nothing });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { text: 'Start\n\nInstall & run.\n\nUse', hints: { title: 'The Guide', sections: ['Start', 'Use'] } });
    const md = expectOk<{ text: string; hints: { sections: string[] } }>(await p.run('extract.text', { content_type: 'text/markdown', bytes_b64: b64('# Title\n\nSome *text*.\n\n## Part\n') }, { policy: nothing }));
    assert.deepEqual([md.text, md.hints.sections], ['Title\n\nSome text.\n\nPart', ['Title', 'Part']]);
    const pdf = makePdf(['Hello from page one', 'Page two'], { title: 'Fixture Document' });
    const ran = await p.run('extract.text', { content_type: 'application/pdf', bytes_b64: b64(pdf) }, { policy: nothing });
    const out = expectOk<{ text: string; hints: { title?: string } }>(ran);
    assert.match(out.text, /Hello from page one[\s\S]*Page two/);
    assert.equal(out.hints.title, 'Fixture Document');
    await usedNothing(ran);
  });

  it("extract.text: a result over the policy's output cap is refused (no truncation flag in its response)", async () => {
    const capped = await p.policy({ permissions: {}, limits: { max_output_bytes: 200 } });
    expectSkillError(await p.run('extract.text', { content_type: 'text/markdown', bytes_b64: b64('word '.repeat(100)) }, { policy: capped }), 'SKILL_OUTPUT_LIMIT');
  });

  it('extract.text: bad requests give schema findings', async () => {
    await expectSchemaFindings(p, await p.run('extract.text', { content_type: 'image/png' }, { policy: nothing }), ['/bytes_b64', '/content_type']);
    await expectSchemaFindings(p, await p.run('extract.text', { content_type: 'text/html', bytes_b64: 42 }, { policy: nothing }), ['/bytes_b64']);
  });

  it('neither skill can be given a permission its manifest does not request', async () => {
    // A policy that grants everything still grants them nothing: requested is empty.
    const all = await p.policy({ permissions: { 'fs.read': ['/'], 'net.http': ['https://example.com/'], env: ['HOME'] } });
    const ran = await p.run('json.validate', { json: '1', schema: true }, { policy: all });
    expectOk(ran);
    await usedNothing(ran);
  });

  it('every run left one intact audit record', async () => {
    assert.equal(await p.verifyAudit(), 12);
  });
});
