// Threat: a manifest's execution_context.timezone that `validate` accepts and the skill never gets.
// `run` hands the timezone to the skill as TZ (and, under bubblewrap, as /etc/localtime ->
// /usr/share/zoneinfo/<name>), which glibc, Python's zoneinfo and Node look up by exact file name.
// ICU, which validate asked, compares names without regard to case and, from Node 22, takes UTC
// offsets too: `europe/berlin` validated and the skill ran in UTC (glibc finds no such file), and
// `+01:00` validated on Node 24, was EXECUTION_CONTEXT_INVALID on Node 20, and ran as UTC-1 or UTC
// (a POSIX TZ string reads the sign the other way), until the stop of 2026-12-01. A timezone is now
// a tzdata name as spelt in /usr/share/zoneinfo (each part starting with a capital, ICU's own name
// when it is one in another case): anything else is EXECUTION_CONTEXT_INVALID on every Node.
import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { attempt, scratch } from '../helpers/attack.js';
import { fixture } from '../helpers/paths.js';

const refused = ['europe/berlin', 'Europe/BERLIN', 'EUROPE/BERLIN', '+01:00', '-0530', 'utc', 'us/pacific'];
const accepted = ['Europe/Berlin', 'UTC', 'US/Pacific', 'Etc/GMT+1', 'America/New_York'];

describe('execution_context.timezone spelt otherwise than the zone files', () => {
  const sc = scratch('skillctl-timezone-');

  [...refused.map((tz) => [tz, true] as const), ...accepted.map((tz) => [tz, false] as const)].forEach(([tz, bad], i) => {
    it(`timezone ${JSON.stringify(tz)}: ${bad ? 'EXECUTION_CONTEXT_INVALID, exit 1' : 'valid'}`, async () => {
      const dir = join(sc.work, `tz${i}`);
      await cp(fixture('pack', 'golden-bundle'), dir, { recursive: true });
      const manifest = join(dir, 'skill.yaml');
      await writeFile(manifest, `${await readFile(manifest, 'utf8')}execution_context:\n  timezone: ${JSON.stringify(tz)}\n`);
      const r = await attempt(['validate', dir, '--fix'], { cwd: sc.work });
      assert.deepEqual([r.exit, r.errors], bad ? [1, ['EXECUTION_CONTEXT_INVALID']] : [0, []], r.stdout + r.stderr);
    });
  });
});
