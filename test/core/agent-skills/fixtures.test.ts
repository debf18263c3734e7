// Every fixture folder under fixtures/agent-skills/ yields exactly the codes (with severities)
// fixtures/agent-skills/expected.json lists for it, under each of the three profiles.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { AGENT_SKILL_PROFILES, PROFILE_LEVELS, validateAgentSkill, type AgentSkillProfile } from '../../../src/core/agent-skills/index.js';
import { fixture } from '../../helpers/paths.js';

type Expectation = { all: string[] } | Record<AgentSkillProfile, string[]>;
const expected = JSON.parse(readFileSync(fixture('agent-skills', 'expected.json'), 'utf8')) as Record<string, Expectation>;
delete expected.$comment;

function codesFor(e: Expectation, profile: AgentSkillProfile): string[] {
  return 'all' in e ? e.all : e[profile];
}

describe('Agent Skills fixtures', () => {
  it('every fixture folder has an expectation, and every expectation a folder', () => {
    const dirs = ['valid', 'invalid'].flatMap((k) => readdirSync(fixture('agent-skills', k)).map((d) => `${k}/${d}`)).sort();
    assert.deepEqual(dirs, Object.keys(expected).sort());
  });

  for (const [name, e] of Object.entries(expected)) {
    for (const profile of AGENT_SKILL_PROFILES) {
      const codes = codesFor(e, profile);
      it(`${name} under ${profile}: ${codes.length === 0 ? 'nothing' : codes.join(', ')}`, async () => {
        const r = await validateAgentSkill(fixture('agent-skills', name), { profile });
        const got = [...new Set(r.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.code}:${d.severity}`))].sort();
        assert.deepEqual(got, codes, JSON.stringify(r.diagnostics, null, 2));
        assert.equal(r.valid, !codes.some((c) => c.endsWith(':error')));
        if (profile === 'default') assert.equal(r.valid, name.startsWith('valid/'));
      });
    }
  }

  it('every lint code of the checker is proved by a fixture, or by a generated case in checks.test.ts', () => {
    const seen = new Set(Object.values(expected).flatMap((e) => AGENT_SKILL_PROFILES.flatMap((p) => codesFor(e, p))).map((c) => c.split(':')[0]));
    const generated = ['AGENT_SKILL_TOO_MANY_FILES', 'AGENT_SKILL_TOO_LARGE'];
    const missing = Object.keys(PROFILE_LEVELS).filter((c) => !seen.has(c) && !generated.includes(c));
    assert.deepEqual(missing, []);
  });
});
