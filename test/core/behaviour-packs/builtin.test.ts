import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  BUILTIN_PACKS,
  BUILTIN_PROFILES,
  identityLine,
  loadPackDir,
  PACK_MIN_CHARS,
  packLines,
  renderPack,
  renderPackText,
  type Pack,
} from '../../../src/core/behaviour-packs/index.js';
import { ROOT } from '../../helpers/paths.js';
import { operatorPacks, packData } from '../../helpers/packs.js';

describe('built-in packs', () => {
  it('are exactly the four profiles of the contract, at skill_pack_version 0.1.0', () => {
    assert.deepEqual([...BUILTIN_PROFILES], ['daily', 'research', 'strict', 'teamlead']);
    for (const p of BUILTIN_PACKS) assert.equal(p.skill_pack_version, '0.1.0');
  });

  it('are what skillctl itself loads from manifests/packs (the embedded copy cannot drift)', async () => {
    const r = await loadPackDir(join(ROOT, 'manifests', 'packs'), { reserved: [] });
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(
      r.value?.map((l) => l.pack),
      BUILTIN_PACKS.map((p) => JSON.parse(JSON.stringify(p)) as Pack),
    );
  });

  it('each has its own section first, a next loop, and proof discipline with receipts', () => {
    for (const p of BUILTIN_PACKS) {
      const names = p.sections.map((s) => s.name);
      assert.equal(names[0], p.profile.toUpperCase());
      assert.ok(names.includes('NEXT LOOP') && names.includes('PROOF'), p.profile);
      const proof = p.sections.find((s) => s.name === 'PROOF')?.lines.join('\n') ?? '';
      assert.match(proof, /^CMD: /m, `${p.profile}: commands run`);
      assert.match(proof, /^AUDIT: /m, `${p.profile}: audit records`);
      assert.match(proof, /sha256|digest/i, `${p.profile}: digests`);
    }
  });

  it('are plain ASCII, one line per item, and fit the reference runner default of 1200 only when cut', () => {
    for (const p of BUILTIN_PACKS) {
      const text = packLines(p).join('\n');
      assert.match(text, /^[\x20-\x7e\n]+$/, p.profile);
      assert.ok(text.length > 1200, `${p.profile} is ${text.length} characters`);
    }
  });

  it('stay useful at the smallest budget: the first line of the own section and the whole next loop survive', () => {
    for (const p of BUILTIN_PACKS) {
      const own = p.sections[0];
      const loop = p.sections.find((s) => s.name === 'NEXT LOOP');
      const r = renderPackText(p, PACK_MIN_CHARS);
      assert.ok(r.text.startsWith(`${identityLine(p)}\n[${own?.name}]\n${own?.lines[0]}\n`), r.text);
      assert.ok(r.text.includes(`\n[NEXT LOOP]\n${loop?.lines.join('\n') ?? ''}\n`), r.text);
    }
  });

  it('cannot be changed by a library user (frozen)', () => {
    const daily = BUILTIN_PACKS[0] as Pack;
    assert.throws(() => (daily.sections[0]?.lines as string[]).push('x'));
    assert.throws(() => ((daily as { profile: string }).profile = 'x'));
  });
});

describe('renderPack', () => {
  it('renders the daily pack by default, whole, starting with its identity line', () => {
    const r = renderPack();
    assert.equal(r.ok, true);
    assert.ok(r.value?.text.startsWith('skill profile=daily version=0.1.0\n[DAILY]\n'));
    assert.equal(r.value?.truncated, false);
  });

  it('reports a clamped budget as a PACK_BUDGET_CLAMPED warning, and still renders', () => {
    const r = renderPack('strict', 3);
    assert.equal(r.ok, true);
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.severity, d.pointer]), [['PACK_BUDGET_CLAMPED', 'warning', '/max_chars']]);
    assert.equal(r.value?.max_chars, PACK_MIN_CHARS);
    assert.deepEqual(renderPack('strict', PACK_MIN_CHARS).diagnostics, []);
  });

  it('is deterministic', () => {
    for (const p of BUILTIN_PROFILES) assert.deepEqual(renderPack(p, 700), renderPack(p, 700));
  });

  it('returns INVALID_INPUT for an unknown profile or a non-integer budget, never throws', () => {
    assert.deepEqual(renderPack('deep').diagnostics.map((d) => [d.code, d.pointer]), [['INVALID_INPUT', '/profile']]);
    assert.deepEqual(renderPack('daily', 1.5).diagnostics.map((d) => [d.code, d.pointer]), [['INVALID_INPUT', '/max_chars']]);
    assert.deepEqual(renderPack('daily', '300' as unknown as number).diagnostics.map((d) => d.code), ['INVALID_INPUT']);
  });

  it('offers operator packs, and refuses one that is invalid or takes a built-in name', async () => {
    const packs = await operatorPacks();
    assert.equal(renderPack('acme-oncall', 300, { packs }).value?.profile, 'acme-oncall');
    assert.equal(renderPack('acme-oncall').ok, false);
    assert.deepEqual(renderPack('daily', undefined, { packs: [packData('daily') as unknown as Pack] }).diagnostics.map((d) => [d.code, d.pointer]), [
      ['PACK_PROFILE_RESERVED', '/packs/0/profile'],
    ]);
    const twice = [packData('ops'), packData('ops')] as unknown as Pack[];
    assert.deepEqual(renderPack('ops', undefined, { packs: twice }).diagnostics.map((d) => d.code), ['PACK_PROFILE_DUPLICATE']);
    const broken = { ...packData('ops'), sections: [{ name: 'OPS', lines: ['a\nb'] }] } as unknown as Pack;
    const r = renderPack('ops', undefined, { packs: [broken] });
    assert.equal(r.ok, false);
    assert.ok(r.diagnostics.every((d) => d.pointer?.startsWith('/packs/0/')));
  });
});
