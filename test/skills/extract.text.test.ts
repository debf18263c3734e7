import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makePdf } from '../helpers/pdf.js';
import { fixtureContext } from '../helpers/skill-context.js';
import { errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';

const ID = 'extract.text';

interface Extracted {
  text: string;
  hints: { title?: string; sections: string[] };
}

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
const { ctx, gate } = fixtureContext({ cwd: '/', policy: {} });

const HTML = `<!doctype html><html><head><title>  The   Guide </title>
<style>body { color: red }</style><script>alert("x"); document.write("<h1>fake</h1>")</script></head>
<body><nav>Home | Docs</nav><h1>Getting started</h1><p>Install it &amp; run<br>it.</p>
<noscript>enable js</noscript><h2>Usage <small>v2</small></h2><ul><li>one</li><li>two</li></ul>
<table><tr><th>a</th><td>1</td></tr></table><template><p>hidden</p></template><svg><text>svg text</text></svg></body></html>`;

describe('extract.text', () => {
  it("answers the seed's example request for HTML: text, title and sections; scripts and styles dropped", async () => {
    const out = okOutput<Extracted>(await runSkill(ID, { content_type: 'text/html', bytes_b64: b64(HTML) }, ctx));
    assert.deepEqual(out.hints, { title: 'The Guide', sections: ['Getting started', 'Usage v2'] });
    assert.equal(out.text, 'Home | Docs\n\nGetting started\n\nInstall it & run\nit.\n\nUsage v2\n\none\n\ntwo\n\na 1');
    for (const gone of ['alert', 'color', 'fake', 'enable js', 'hidden', 'svg text']) assert.ok(!out.text.includes(gone), gone);
    assert.deepEqual(gate.calls, [], 'no host operation at all');
  });

  it('extracts Markdown: inline markup reduced to text, headings as sections, first h1 as title', async () => {
    const md = '\uFEFF# Project *Name*\n\nIntro with `code`, **bold** and a [link](https://example.com).\n\n## Install\n\n```sh\nnpm ci\n```\n\n- a\n- b\n\n| k | v |\n|---|---|\n| x | 1 |\n\n<div>raw <b>html</b></div>\n\n## Use\n> quoted\n';
    const out = okOutput<Extracted>(await runSkill(ID, { content_type: 'text/markdown', bytes_b64: b64(md) }, ctx));
    assert.deepEqual(out.hints, { title: 'Project Name', sections: ['Project Name', 'Install', 'Use'] });
    assert.equal(out.text, 'Project Name\n\nIntro with code, bold and a link.\n\nInstall\n\nnpm ci\n\na\n\nb\n\nk | v\nx | 1\n\nraw html\n\nUse\n\nquoted');
  });

  it('extracts the text of every page of a PDF, with its title and outline', async () => {
    const pdf = makePdf(['Hello from page one\nsecond line', 'Page two (final)'], { title: 'Fixture Document', outline: ['Introduction', 'Details'] });
    const out = okOutput<Extracted>(await runSkill(ID, { content_type: 'application/pdf', bytes_b64: b64(pdf) }, ctx));
    assert.match(out.text, /Hello from page one/);
    assert.match(out.text, /second line/);
    assert.match(out.text, /Page two \(final\)/);
    assert.ok(out.text.indexOf('page one') < out.text.indexOf('Page two'), 'pages in order');
    assert.deepEqual(out.hints, { title: 'Fixture Document', sections: ['Introduction', 'Details'] });
  });

  it('reports a damaged PDF as an error, not a crash', async () => {
    assert.equal(errorCode(await runSkill(ID, { content_type: 'application/pdf', bytes_b64: b64('%PDF-1.4 this is not a pdf') }, ctx)), 'SKILL_EXTRACT_FAILED');
  });

  it("refuses a result larger than the host's output cap", async () => {
    const small = fixtureContext({ cwd: '/', policy: {}, limits: { maxOutputBytes: 50 } });
    const md = 'word '.repeat(100);
    assert.equal(errorCode(await runSkill(ID, { content_type: 'text/markdown', bytes_b64: b64(md) }, small.ctx)), 'SKILL_OUTPUT_LIMIT');
  });

  it('gives schema findings for bad requests, and refuses bad base64 even unchecked', async () => {
    assert.deepEqual(await inputFindings(ID, { content_type: 'text/html' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/bytes_b64' }]);
    assert.deepEqual(await inputFindings(ID, { content_type: 'image/png', bytes_b64: '' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/content_type' }]);
    assert.equal(errorCode(await runSkill(ID, { content_type: 'text/html', bytes_b64: 'not base64!' }, ctx)), 'SKILL_REQUEST_INVALID');
    assert.equal(errorCode(await runSkill(ID, { content_type: 'text/csv', bytes_b64: '' }, ctx, { unchecked: true })), 'SKILL_REQUEST_INVALID');
  });
});
