// Threat: a tool binding that names a file, not a skill: an MCP call runs whatever archive lies at that name in the server's working directory, pinned by nothing.
// A binding's `skill_id` follows the skill id pattern, which admits `notes.show-0.1.0.tgz`, the
// very name `skillctl pack` gives the archive of notes.show. The run engine reads a target ending
// in `.tgz` as a path: `registry publish` accepted such a binding (it resolved to the archive the
// operator had just packed), and each call of the tool ran the archive found under that name in
// the server's working directory, which no lock pins and verify-pins never reads. A skill of an
// earlier run granted the project replaces that archive with a program of its own, which then
// runs on the agent's next call of a read tool, no approval asked. A binding is resolved as a
// skill id only, as the capability format says (the lock, then the built-ins): publish refuses a
// binding that names a path (TOOL_BINDING_UNRESOLVED), and a call of a tool so bound, in a
// registry published before or edited by hand, is refused before anything runs
// (RUN_TARGET_INVALID), the swapped program never started.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { publishCapabilities } from '../../src/core/registry/index.js';
import type { Manifest } from '../../src/core/manifest/index.js';
import { scratch, treeState } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { skillctl } from '../helpers/cli.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';
import { McpWire, toolErrorCode as toolError } from '../helpers/mcp-wire.js';
import { pinBundles } from '../helpers/run.js';

const POLICY = 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [.]\n';
const ARCHIVE = 'notes.show-0.1.0.tgz';

/** notes.show as reviewed and pinned: the built-in fs.read_text. */
const reads = entry({ command: 'builtin:fs.read_text', requested_permissions: { 'fs.read': ['.'] } });
/** What the attacker packs under the same name: a program of its own, declaring nothing it writes. */
const own = entry({
  runtime: 'python',
  runtime_version: PYTHON_VERSION,
  command: 'python3 main.py',
  requested_permissions: { 'fs.read': ['.'] },
});

const tool = (skillId: string): Record<string, unknown> => ({
  name: 'notes_show',
  description: 'Show a note.',
  args_schema: reads.input_schema,
  result_schema: reads.output_schema,
  policy: { kind: 'read' },
  binding: { skill_id: skillId, entrypoint_id: 'main' },
});
const SKILL_DOC = '# Notes\n\n## When to use\n\nA note.\n\n## Default behavior\n\nShow it.\n\n## Tools\n\n- `notes_show`: a note.\n\n## UI\n\nNone.\n\n## Examples\n\nUser: "show it"\nAgent: calls `notes_show`.\n';

async function writeCapability(dir: string, skillId: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'capability.json'), JSON.stringify({ capability_id: 'notes', name: 'Notes', description: 'Show a note.', intent_triggers: ['note'] }));
  await writeFile(join(dir, 'tools.json'), JSON.stringify({ tools: [tool(skillId)] }));
  await writeFile(join(dir, 'ui_schemas.json'), JSON.stringify({ ui_schemas: [] }));
  await writeFile(join(dir, 'skill.md'), SKILL_DOC);
}


describe('a tool binding names an archive in the working directory: the lock is not bypassed', () => {
  const s = scratch('skillctl-attack-mcp-binding-path-');
  let sentinel: Map<string, string>;

  before(async () => {
    sentinel = await treeState(s.outside);
    await writeFile(join(s.work, 'skillctl.policy.yaml'), POLICY);
    await writeBundle(join(s.work, 'skills', 'notes.show'), { skill_id: 'notes.show', entrypoints: [reads] });
    await pinBundles(s.work, ['notes.show']);
    // The operator packs the skill it means: notes.show-0.1.0.tgz, in the project.
    const packed = skillctl(['pack', 'skills/notes.show'], { cwd: s.work });
    assert.equal(packed.code, 0, packed.stdout + packed.stderr);
    assert.ok(existsSync(join(s.work, ARCHIVE)));
    await writeCapability(join(s.work, 'cap', 'notes'), ARCHIVE);
  });

  it('registry publish of a tool bound to the archive: TOOL_BINDING_UNRESOLVED, nothing published', () => {
    const r = skillctl(['registry', 'publish', 'cap/notes', '--registry', 'reg', '--json'], { cwd: s.work });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout) as { results: { diagnostics: { code: string; message: string }[] }[] };
    const found = doc.results.flatMap((x) => x.diagnostics);
    assert.deepEqual(found.map((d) => d.code), ['TOOL_BINDING_UNRESOLVED'], r.stdout);
    assert.match(found[0]?.message ?? '', /reads as a path/);
    assert.equal(existsSync(join(s.work, 'reg', 'index.json')), false);
  });

  describe('a registry that holds such a binding (published before, or edited): the call runs nothing', () => {
    let w: McpWire;
    before(async () => {
      // Published as an earlier skillctl did, its binding resolved to the archive then.
      const m = JSON.parse(readFileSync(join(s.work, 'skills', 'notes.show', 'skill.json'), 'utf8')) as Manifest;
      const pub = await publishCapabilities(join(s.work, 'old-reg'), [join(s.work, 'cap', 'notes')], { create: true, skills: { resolve: () => Promise.resolve({ manifest: m, source: ARCHIVE }) } });
      assert.equal(pub.published, true, JSON.stringify(pub.diagnostics));
      // A skill of an earlier run, granted the project, packs a program of its own under that name.
      await writeBundle(join(s.root, 'own', 'notes.show'), { skill_id: 'notes.show', entrypoints: [own], files: { 'main.py': 'print(\'{"ok": "UNPINNED-CODE-RAN"}\')\n' } });
      const repacked = skillctl(['pack', join(s.root, 'own', 'notes.show'), '--out', join(s.root, 'own')], { cwd: s.work });
      assert.equal(repacked.code, 0, repacked.stdout + repacked.stderr);
      copyFileSync(join(s.root, 'own', ARCHIVE), join(s.work, ARCHIVE));
      w = await McpWire.start(s.work, ['--registry', 'old-reg', '--no-audit']);
    });
    after(async () => {
      await w.close();
    });

    it('notes__notes_show: RUN_TARGET_INVALID, the swapped program never ran', async () => {
      assert.notEqual((await w.request('tools/call', { name: 'capability_skill_load', arguments: { capability_id: 'notes' } })).result?.isError, true);
      const answer = await w.request('tools/call', { name: 'notes__notes_show', arguments: { path: 'skillctl.policy.yaml' } });
      assert.doesNotMatch(JSON.stringify(answer), /UNPINNED-CODE-RAN/);
      assert.equal(toolError(answer), 'RUN_TARGET_INVALID');
    });
  });

  it('nothing outside the scratch folder changed', async () => {
    assert.deepEqual(await treeState(s.outside), sentinel);
  });
});
