/**
 * A repository is attacker-controlled input (DESIGN.md, "Confinement"): git.status and git.diff
 * must never run a program it names, whatever the name, nor read a repository, configuration or
 * object store outside the grant. Each row of ATTACKS is a real repository; each runs with
 * `--sandbox none` (the neutralisation alone) and with bubblewrap, and asserts the outcome code
 * and that no trap ran (no marker outside the scratch folder, nothing on the tripwire).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BuiltinContext, BuiltinOutcome, SandboxMode } from '../../src/core/run/index.js';
import { skillContext } from '../helpers/skill-context.js';
import { runSkill } from '../helpers/skill-contract.js';
import { PLACE_ATTACKS } from './git-attacks-places.js';
import { PROGRAM_ATTACKS } from './git-attacks-programs.js';
import { scratch, type Attack, type Run, type Setup } from './git-traps.js';

const ALLOW = { read: ['.'], exec: ['git'] };

/** The code an outcome ends with: `ok`, the skill's error code, or the denial's code. */
function codeOf(outcome: BuiltinOutcome): string {
  switch (outcome.status) {
    case 'ok':
      return 'ok';
    case 'error':
      return outcome.error.code;
    case 'denied':
      return outcome.decision.code;
    case 'unavailable':
      return outcome.diagnostics.map((d) => d.code).join(',');
    default: {
      const never: never = outcome;
      return never;
    }
  }
}

function runsOf(setup: Setup): readonly Run[] {
  if (setup.runs !== undefined) return setup.runs;
  const runs: Run[] = [
    { skill: 'git.status', input: {} },
    { skill: 'git.diff', input: { target: 'working' } },
    { skill: 'git.diff', input: { target: 'staged' } },
  ];
  if (setup.commit !== undefined) runs.push({ skill: 'git.diff', input: { target: 'commit', commit: setup.commit } });
  return runs;
}

/**
 * A policy that passes every variable of `env` to the skill. The manifests request none, so a real
 * run never passes GIT_* names; the skill drops them anyway, which this lets a test check.
 */
function passingEnv(ctx: BuiltinContext): BuiltinContext {
  return { ...ctx, policy: { ...ctx.policy, checkEnv: (name: string) => ({ allowed: true, resolved: name }) } };
}

function expected(attack: Attack, sandbox: 'none' | 'bwrap'): string {
  return typeof attack.expect === 'string' ? attack.expect : attack.expect[sandbox];
}

describe('git.status and git.diff on hostile repositories', () => {
  for (const sandbox of ['none', 'bwrap'] as const satisfies readonly SandboxMode[]) {
    describe(`--sandbox ${sandbox}`, () => {
      for (const attack of [...PROGRAM_ATTACKS, ...PLACE_ATTACKS]) {
        it(attack.name, async () => {
          const t = await scratch(attack.tripDir);
          try {
            const setup = await attack.build(t);
            const made = await skillContext('git.status', { cwd: t.repo, policy: ALLOW, sandbox, limits: { timeoutMs: 20_000 }, ...(setup.env !== undefined ? { env: { PATH: process.env.PATH ?? '', ...setup.env } } : {}) });
            const ctx = setup.env !== undefined ? passingEnv(made.ctx) : made.ctx;
            const got: string[] = [];
            for (const run of runsOf(setup)) got.push(`${run.skill} ${JSON.stringify(run.input)}: ${codeOf(await runSkill(run.skill, run.input, ctx))}`);
            const want = runsOf(setup).map((run) => `${run.skill} ${JSON.stringify(run.input)}: ${run.expect ?? expected(attack, sandbox)}`);
            // Both at once: a failing row shows its outcomes and the traps that ran.
            assert.deepEqual({ outcomes: got, sprung: t.sprung() }, { outcomes: want, sprung: [] });
            if (made.confined.length > 0) assert.deepEqual([...new Set(made.confined.map((c) => c.sandbox))], [sandbox]);
          } finally {
            t.close();
          }
        });
      }
    });
  }
});

