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
    for (const c of doc.capabilities) assert.deepEqual(Object.keys(c), ['capability_id', 'name', 'description', 'intent_triggers', 'origin']);
    assert.deepEqual([...new Set(doc.capabilities.map((c) => c.origin))], ['shipped']);
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

  it("inside a project, publish creates .skillctl/registry over the shipped one: list, match and load see both; SKILLCTL_REGISTRY is exactly its registry", () => {
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    writeFileSync(join(project, 'skillctl.policy.yaml'), '{}\n');
    const cwd = join(project, 'sub');
    mkdirSync(cwd);
    cpSync(VALID('meals'), join(cwd, 'meals'), { recursive: true });
    const env = { SKILLCTL_REGISTRY: undefined };
    assert.equal(skillctl(['registry', 'publish', 'meals'], { cwd, env }).code, 0);
    assert.ok(existsSync(join(project, '.skillctl', 'registry', 'index.json')));
    const list = json<{ capabilities: { capability_id: string; origin: string }[] }>(skillctl(['registry', 'list', '--json'], { cwd, env }));
    assert.deepEqual(list.capabilities.map((c) => `${c.capability_id} ${c.origin}`), ['filesystem shipped', 'git shipped', 'json shipped', 'meals project', 'search shipped', 'shell shipped', 'web shipped']);
    const matched = json<{ matches: { capability_id: string }[] }>(skillctl(['registry', 'match', '--json', 'log the calories of my meal and show the git status'], { cwd, env }));
    assert.deepEqual(matched.matches.map((m) => m.capability_id).sort(), ['git', 'meals']);
    assert.equal(skillctl(['registry', 'load', 'meals', 'git'], { cwd, env }).code, 0);
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

describe('skillctl registry: the project registry adds to the shipped one', () => {
  /** A project (the top of a git work tree) with the meals capability and a copy of the shipped json one to publish. */
  function layeredProject(): string {
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    cpSync(VALID('meals'), join(project, 'capabilities', 'meals'), { recursive: true });
    cpSync(join(SHIPPED_SOURCES, 'json'), join(project, 'capabilities', 'json'), { recursive: true });
    return project;
  }
  const env = { SKILLCTL_REGISTRY: undefined };

  it('publish says where it published; list shows the published capability beside the shipped ones, with origins', () => {
    const project = layeredProject();
    const pub = skillctl(['registry', 'publish', 'capabilities/meals'], { cwd: project, env });
    assert.equal(pub.code, 0, pub.stdout + pub.stderr);
    assert.match(pub.stdout, /^✔ published meals \(sha256:[0-9a-f]{64}\)\ninto \.skillctl\/registry \(project\)\n$/);
    const list = skillctl(['registry', 'list'], { cwd: project, env });
    assert.equal(list.code, 0);
    assert.match(list.stdout, /^meals {2}Meal Tracking: Log meals and track nutrition {2}\[project\]$/m);
    assert.match(list.stdout, /^filesystem {2}.*\[shipped\]$/m);
    assert.doesNotMatch(list.stdout, /shadows/);
    assert.match(list.stderr, /^registry: \.skillctl\/registry \(project\), over .*manifests\/registry \(shipped\)$/m);
    const doc = json<{ capabilities: { capability_id: string; origin: string; shadows?: string }[] }>(skillctl(['registry', 'list', '--json'], { cwd: project, env }));
    assert.deepEqual(doc.capabilities.map((c) => [c.capability_id, c.origin, c.shadows]), [
      ['filesystem', 'shipped', undefined],
      ['git', 'shipped', undefined],
      ['json', 'shipped', undefined],
      ['meals', 'project', undefined],
      ['search', 'shipped', undefined],
      ['shell', 'shipped', undefined],
      ['web', 'shipped', undefined],
    ]);
  });

  it('a capability with a shipped id shadows it only with a note: at publish, in list and in --json', () => {
    const project = layeredProject();
    const pub = skillctl(['registry', 'publish', 'capabilities/json'], { cwd: project, env });
    assert.equal(pub.code, 0, pub.stdout + pub.stderr);
    assert.equal(
      pub.stdout.replace(/sha256:[0-9a-f]{64}/, 'sha256:…'),
      [
        'capabilities/json/capability.json',
        '          info    CAPABILITY_SHADOWED  capability json shadows the capability of the same id in the shipped registry: list, match and load now see this one /capability_id',
        '          hint: publish it under another capability_id to offer both',
        '✔ published json (sha256:…)',
        'into .skillctl/registry (project)',
        '',
      ].join('\n'),
    );
    const published = json<{ origin: string; results: { capability_id: string; shadows: string | null }[] }>(skillctl(['registry', 'validate', '--json', 'capabilities/json', 'capabilities/meals'], { cwd: project, env }));
    assert.equal(published.origin, 'project');
    assert.deepEqual(published.results.map((r) => [r.capability_id, r.shadows]), [['json', 'shipped'], ['meals', null]]);
    const list = skillctl(['registry', 'list'], { cwd: project, env });
    assert.match(list.stdout, /^json {2}.*\[project, shadows shipped\]$/m);
    assert.match(list.stdout, /^note: json from the project registry shadows the shipped capability of the same id$/m);
    const doc = json<{ capabilities: { capability_id: string; origin: string; shadows?: string }[] }>(skillctl(['registry', 'list', '--json'], { cwd: project, env }));
    assert.deepEqual(doc.capabilities.find((c) => c.capability_id === 'json'), { ...doc.capabilities.find((c) => c.capability_id === 'json'), origin: 'project', shadows: 'shipped' });
    assert.equal(doc.capabilities.filter((c) => c.capability_id === 'json').length, 1);
  });

  it('--registry names exactly one registry: no shipped layer beneath it', () => {
    const project = layeredProject();
    assert.equal(skillctl(['registry', 'publish', 'capabilities/meals'], { cwd: project, env }).code, 0);
    const doc = json<{ capabilities: { capability_id: string; origin: string }[] }>(skillctl(['registry', 'list', '--json', '--registry', '.skillctl/registry'], { cwd: project, env }));
    assert.deepEqual(doc.capabilities.map((c) => [c.capability_id, c.origin]), [['meals', 'flag']]);
    const load = skillctl(['registry', 'load', '--json', '--registry', '.skillctl/registry', 'filesystem'], { cwd: project, env });
    assert.equal(load.code, 2);
    assert.deepEqual(json<{ error: { available_capabilities: string[] } }>(load).error.available_capabilities, ['meals']);
  });
});
