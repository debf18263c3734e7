// The layered view: a project's registry over the shipped one (src/core/registry/layers.ts).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { dirSkillResolver, loadFromView, locateRegistryLayers, publishCapabilities, readRegistryView, type RegistryLocation } from '../../../src/core/registry/index.js';
import { ROOT } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { copyBundle, editJson, SKILLS, VALID } from './helpers.js';

const SHIPPED: RegistryLocation = { dir: join(ROOT, 'manifests', 'registry'), source: 'shipped', writable: false };

async function projectRegistry(dirs: readonly string[]): Promise<RegistryLocation> {
  const dir = join(tempDir(), 'registry');
  const r = await publishCapabilities(dir, dirs, { create: true, skills: dirSkillResolver([SKILLS]) });
  assert.ok(r.published, JSON.stringify(r.diagnostics));
  return { dir, source: 'project', writable: true };
}

describe('layered registries', () => {
  it('the upper layer adds its capabilities to the lower one; each has its origin', async () => {
    const read = await readRegistryView([await projectRegistry([VALID('meals')]), SHIPPED]);
    assert.ok(read.ok);
    assert.deepEqual(read.view.capabilities.map((c) => `${c.entry.capability_id} ${c.origin}`), ['filesystem shipped', 'git shipped', 'json shipped', 'meals project', 'search shipped', 'shell shipped', 'web shipped']);
    const meals = await loadFromView(read.view, 'meals');
    const git = await loadFromView(read.view, 'git');
    assert.ok(meals.ok && git.ok);
    const none = await loadFromView(read.view, 'sleep');
    assert.ok(!none.ok && none.error.code === 'CAPABILITY_NOT_FOUND' && none.error.available_capabilities.length === 7);
  });

  it('an id in both layers is the upper one, marked as shadowing the lower', async () => {
    const json = copyBundle(join(ROOT, 'manifests', 'capabilities', 'json'));
    editJson(json, 'capability.json', (d) => void (d.name = 'Project JSON'));
    const read = await readRegistryView([await projectRegistry([json]), SHIPPED]);
    assert.ok(read.ok);
    const entry = read.view.capabilities.find((c) => c.entry.capability_id === 'json');
    assert.deepEqual([entry?.origin, entry?.shadows, entry?.entry.name], ['project', 'shipped', 'Project JSON']);
    assert.equal(read.view.capabilities.filter((c) => c.entry.capability_id === 'json').length, 1);
  });

  it('publish into the upper layer reports what it shadows and counts the lower tool names', async () => {
    const lower = await readRegistryView([SHIPPED]);
    assert.ok(lower.ok);
    const dir = join(tempDir(), 'registry');
    const json = copyBundle(join(ROOT, 'manifests', 'capabilities', 'json'));
    const r = await publishCapabilities(dir, [json], { create: true, skills: dirSkillResolver([SKILLS]), beneath: lower.view.capabilities });
    assert.ok(r.published, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.severity, d.pointer]), [['CAPABILITY_SHADOWED', 'info', '/capability_id']]);
    assert.equal(r.capabilities[0]?.shadows, 'shipped');
    // A tool named as a shipped capability's tool collides, as within one registry.
    const clash = copyBundle(VALID('meals'));
    editJson(clash, 'tools.json', (d) => {
      const first = (d.tools as Record<string, unknown>[])[0];
      if (first !== undefined) first.name = 'git_status';
    });
    const refused = await publishCapabilities(dir, [clash], { labels: ['clash'], dryRun: true, beneath: lower.view.capabilities });
    assert.ok(refused.diagnostics.some((d) => d.code === 'TOOL_NAME_COLLISION'));
  });

  it('an explicit registry is one layer; a project registry lies over the shipped one', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    mkdirSync(join(project, '.skillctl', 'registry'), { recursive: true });
    const shipped = SHIPPED.dir;
    assert.deepEqual((await locateRegistryLayers({ cwd: project, shipped, flag: 'r' })).map((l) => l.source), ['flag']);
    assert.deepEqual((await locateRegistryLayers({ cwd: project, shipped, env: '/r' })).map((l) => l.source), ['env']);
    assert.deepEqual((await locateRegistryLayers({ cwd: project, shipped })).map((l) => l.source), ['project', 'shipped']);
    assert.deepEqual((await locateRegistryLayers({ cwd: tempDir(), shipped })).map((l) => l.source), ['shipped']);
  });
});
