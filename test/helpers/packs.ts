import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPackDir, type Pack } from '../../src/core/behaviour-packs/index.js';
import { fixture } from './paths.js';

/** The valid operator packs of fixtures/packs/operator/valid (non-ASCII and astral text included). */
export async function operatorPacks(): Promise<Pack[]> {
  const r = await loadPackDir(fixture('packs', 'operator', 'valid'));
  if (r.value === undefined) throw new Error(`fixture packs are invalid: ${JSON.stringify(r.diagnostics)}`);
  return r.value.map((l) => l.pack);
}

/** A pack as plain data, for tests that break one part of it. */
export function packData(profile = 'ops'): Record<string, unknown> {
  return {
    profile,
    skill_pack_version: '0.1.0',
    description: 'A test pack.',
    sections: [
      { name: profile.toUpperCase(), lines: ['Do the one thing.'] },
      { name: 'NEXT LOOP', lines: ['1. Step. 2. Receipt. 3. Repeat.'] },
      { name: 'PROOF', lines: ['CMD: the command and its exit code.'] },
    ],
  };
}

export function readFixture(...parts: string[]): string {
  return readFileSync(join(fixture(...parts)), 'utf8');
}
