// SKILLCTL_CWD (docs/commands/run.md): a script skill starts in its bundle, so a relative path in
// its request means nothing there; SKILLCTL_CWD names the caller's working directory, where the
// path was meant. It grants nothing: the process reaches the directory only as far as the
// policy grants it.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { engine, policyFrom } from '../../helpers/run.js';
import { tempDir } from '../../helpers/tmp.js';

const PATH = '/usr/local/bin:/usr/bin:/bin';
const READ_STDIN_NODE = "let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',()=>main(JSON.parse(s)));\n";
// Reads the request's path relative to SKILLCTL_CWD, as a script skill that honours the caller's directory does.
const MAIN = `${READ_STDIN_NODE}const {join}=require('path');function main(i){const cwd=process.env.SKILLCTL_CWD;let text;try{text=require('fs').readFileSync(join(cwd,i.path),'utf8')}catch(e){text=e.code}process.stdout.write(JSON.stringify({ok:{cwd,text}}))}`;

describe('SKILLCTL_CWD', () => {
  const tmp = tempDir('skillctl-cwd-');
  let root: string;
  let project: string;
  const bundle = (): string => join(root, 'bundles', 'reader');

  before(async () => {
    root = realpathSync(tmp);
    project = join(root, 'project');
    await mkdir(join(project, 'other'), { recursive: true });
    await writeFile(join(project, 'notes.txt'), 'from the caller');
    await writeBundle(bundle(), {
      entrypoints: [
        entry({
          runtime: 'node',
          runtime_version: process.version.slice(1),
          command: 'node main.js',
          // "." is the run's working directory: the manifest asks to read there.
          requested_permissions: { 'fs.read': ['.'] },
          output_schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'object' } } },
        }),
      ],
      files: { 'main.js': MAIN },
    });
  });

  for (const sandbox of ['none', 'bwrap'] as const) {
    it(`--sandbox ${sandbox}: names the run's working directory, and a relative request path resolves there when granted`, async () => {
      const r = await engine({ cwd: project, target: bundle(), env: { PATH }, input: { path: 'notes.txt' }, request: { sandbox } });
      assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
      assert.deepEqual(r.output, { ok: { cwd: project, text: 'from the caller' } });
    });

    it(`--sandbox ${sandbox}: grants nothing by itself: outside the policy's grant the file stays out of reach`, async () => {
      const policy = policyFrom({ permissions: { 'fs.read': [join(project, 'other')] } }, project);
      const r = await engine({ cwd: project, target: bundle(), env: { PATH }, policy, input: { path: 'notes.txt' }, request: { sandbox } });
      assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
      const { cwd, text } = (r.output as { ok: { cwd: string; text: string } }).ok;
      assert.equal(cwd, project);
      // node's permission model refuses it, with or without bubblewrap (which also leaves it unmounted).
      assert.equal(text, 'ERR_ACCESS_DENIED');
    });
  }
});
