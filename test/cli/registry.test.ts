import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { dirSkillResolver, publishCapabilities } from '../../src/core/registry/index.js';
import { json, skillctl } from '../helpers/cli.js';
import { fixture, ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const VALID = (n: string): string => fixture('registry', 'capabilities', 'valid', n);
const SHIPPED_SOURCES = join(ROOT, 'manifests', 'capabilities');
const SHIPPED = join(ROOT, 'manifests', 'registry');

function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out[relative(dir, join(d, e.name))] = readFileSync(join(d, e.name), 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** A registry holding the personal-trainer capabilities, published by the CLI. */
function trainerRegistry(): string {
  const reg = join(tempDir('skillctl-cli-reg-'), 'reg');
  const r = skillctl(['registry', 'publish', '--registry', reg, VALID('weights'), VALID('workouts'), VALID('meals')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return reg;
}

describe('skillctl registry', () => {
  it('the shipped registry is exactly the publish of manifests/capabilities', async () => {
    const reg = join(tempDir(), 'reg');
    const sources = readdirSync(SHIPPED_SOURCES).sort().map((d) => join(SHIPPED_SOURCES, d));
    const skills = dirSkillResolver([join(ROOT, 'manifests', 'default')]);
    const r = await publishCapabilities(reg, sources, { skills, create: true });
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(files(reg), files(SHIPPED), 'run: skillctl registry publish --registry manifests/registry manifests/capabilities/*');
  });

  it('list --json: the light index of the shipped registry, outside any project', () => {
    const r = skillctl(['registry', 'list', '--json'], { cwd: tempDir(), env: { SKILLCTL_REGISTRY: undefined } });
    assert.equal(r.code, 0, r.stderr);
    const doc = json<{ capabilities: Record<string, unknown>[] }>(r);
    assert.deepEqual(doc.capabilities.map((c) => c.capability_id), ['filesystem', 'git', 'json', 'search', 'shell', 'web']);
    for (const c of doc.capabilities) assert.deepEqual(Object.keys(c), ['capability_id', 'name', 'description', 'intent_triggers']);
  });

  it('match ranks with the matched triggers; --limit bounds the list', () => {
    const reg = trainerRegistry();
    const r = skillctl(['registry', 'match', '--json', '--registry', reg, 'Log my workout and weigh-in']);
    assert.equal(r.code, 0);
    const doc = json<{ query: string; matches: { capability_id: string; matched_triggers: { trigger: string }[] }[] }>(r);
    assert.equal(doc.query, 'Log my workout and weigh-in');
    assert.deepEqual(doc.matches.map((m) => m.capability_id), ['weights', 'workouts']);
    assert.ok(doc.matches[0]?.matched_triggers.some((t) => t.trigger === 'weigh-in'));
    const human = skillctl(['registry', 'match', '--registry', reg, '--limit', '1', 'I', 'just', 'weighed', '187.6', 'lbs']);
    assert.match(human.stdout, /^1\. weights \(Weight Tracking\)\s+score 1\n\s+matched: "weigh-in" ← weighed\n$/);
    assert.equal(skillctl(['registry', 'match', '--registry', reg, '--limit', '0', 'x']).code, 2);
  });

  it('load --json: the seed payloads; unknown id: CAPABILITY_NOT_FOUND with available_capabilities, exit 2', () => {
    const reg = trainerRegistry();
    const ok = skillctl(['registry', 'load', '--json', '--registry', reg, 'weights', 'meals']);
    assert.equal(ok.code, 0, ok.stderr);
    const doc = json<{ capabilities: { capability_id: string; version: string }[] }>(ok);
    assert.deepEqual(doc.capabilities.map((c) => [c.capability_id, c.version]), [['weights', 'latest'], ['meals', 'latest']]);
    const bad = skillctl(['registry', 'load', '--json', '--registry', reg, 'weights', 'sleep_tracking']);
    assert.equal(bad.code, 2);
    assert.deepEqual(json(bad), {
      error: { code: 'CAPABILITY_NOT_FOUND', message: "No capability found for ID 'sleep_tracking'", available_capabilities: ['meals', 'weights', 'workouts'] },
    });
    const human = skillctl(['registry', 'load', '--registry', reg, 'nope']);
    assert.match(human.stderr, /CAPABILITY_NOT_FOUND[\s\S]*available: meals, weights, workouts/);
  });

  it('load of a damaged bundle: SKILL_MALFORMED, exit 1', () => {
    const reg = trainerRegistry();
    const idx = JSON.parse(readFileSync(join(reg, 'index.json'), 'utf8')) as { capabilities: { capability_id: string; digest: string }[] };
    const meals = idx.capabilities.find((c) => c.capability_id === 'meals');
    writeFileSync(join(reg, 'capabilities', 'meals', String(meals?.digest.slice(7)), 'tools.json'), '{"tools": [');
    const r = skillctl(['registry', 'load', '--json', '--registry', reg, 'meals']);
    assert.equal(r.code, 1);
    const e = json<{ error: { code: string; findings: { file: string; code: string }[] } }>(r).error;
    assert.equal(e.code, 'SKILL_MALFORMED');
    assert.deepEqual(e.findings.map((f) => [f.file, f.code]), [
      ['bundle', 'SKILL_MALFORMED'],
      ['tools.json', 'MANIFEST_PARSE_ERROR'],
    ]);
  });

  it('validate --json reports findings per bundle and writes nothing', () => {
    const reg = join(tempDir(), 'reg');
    const r = skillctl(['registry', 'validate', '--json', '--registry', reg, 'fixtures/registry/capabilities/invalid/workouts-tool-ref-dangling', VALID('meals')]);
    assert.equal(r.code, 1);
    const doc = json<{ published: boolean; results: { dir: string; valid: boolean; diagnostics: { code: string }[] }[] }>(r);
    assert.equal(doc.published, false);
    assert.deepEqual(doc.results.map((x) => [x.valid, x.diagnostics.map((d) => d.code)]), [
      [false, ['SKILL_DOC_TOOL_UNKNOWN', 'SKILL_DOC_TOOL_UNLISTED']],
      [true, []],
    ]);
    assert.equal(existsSync(reg), false);
  });

  it('publish outside a project with no registry named: REGISTRY_READ_ONLY, exit 2', () => {
    const r = skillctl(['registry', 'publish', '--json', VALID('meals')], { cwd: tempDir(), env: { SKILLCTL_REGISTRY: undefined } });
    assert.equal(r.code, 2);
    assert.equal(json<{ error: { code: string } }>(r).error.code, 'REGISTRY_READ_ONLY');
  });

  it("inside a project, publish creates .skillctl/registry and list, match and load use it; SKILLCTL_REGISTRY wins over it", () => {
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    writeFileSync(join(project, 'skillctl.policy.yaml'), '{}\n');
    const cwd = join(project, 'sub');
    mkdirSync(cwd);
    cpSync(VALID('meals'), join(cwd, 'meals'), { recursive: true });
    const env = { SKILLCTL_REGISTRY: undefined };
    assert.equal(skillctl(['registry', 'publish', 'meals'], { cwd, env }).code, 0);
    assert.ok(existsSync(join(project, '.skillctl', 'registry', 'index.json')));
    const list = json<{ capabilities: { capability_id: string }[] }>(skillctl(['registry', 'list', '--json'], { cwd, env }));
    assert.deepEqual(list.capabilities.map((c) => c.capability_id), ['meals']);
    const other = trainerRegistry();
    const viaEnv = json<{ capabilities: { capability_id: string }[] }>(skillctl(['registry', 'list', '--json'], { cwd, env: { SKILLCTL_REGISTRY: other } }));
    assert.deepEqual(viaEnv.capabilities.map((c) => c.capability_id), ['meals', 'weights', 'workouts']);
  });

  it('a registry that does not exist: REGISTRY_NOT_FOUND, exit 2, one JSON document', () => {
    const r = skillctl(['registry', 'list', '--json', '--registry', join(tempDir(), 'none')]);
    assert.equal(r.code, 2);
    assert.equal(json<{ error: { code: string } }>(r).error.code, 'REGISTRY_NOT_FOUND');
  });
});

describe('skillctl registry: bindings resolve as skillctl run resolves skills', () => {
  it("through the project's lock: valid inside the project, TOOL_BINDING_UNRESOLVED outside", () => {
    const project = tempDir();
    cpSync(fixture('registry', 'mcp', 'skills', 'demo.note_stats'), join(project, 'skills', 'demo.note_stats'), { recursive: true });
    // A lock as skillctl pin writes it: run (and so the registry) trusts nothing less.
    const pinned = skillctl(['pin', 'skills/demo.note_stats'], { cwd: project });
    assert.equal(pinned.code, 0, pinned.stderr);
    const notes = fixture('registry', 'mcp', 'notes');
    const inside = skillctl(['registry', 'validate', '--json', notes], { cwd: project, env: { SKILLCTL_REGISTRY: undefined } });
    assert.equal(inside.code, 0, inside.stdout);
    const outside = skillctl(['registry', 'validate', '--json', notes], { cwd: tempDir(), env: { SKILLCTL_REGISTRY: undefined } });
    assert.equal(outside.code, 1);
    const doc = json<{ results: { diagnostics: { code: string; pointer: string }[] }[] }>(outside);
    assert.deepEqual(doc.results[0]?.diagnostics.map((d) => `${d.code} ${d.pointer}`), ['TOOL_BINDING_UNRESOLVED /tools/0/binding']);
  });
});
