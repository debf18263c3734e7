// Golden cases for payload contracts: `skillctl contract` and `validate --contract` (docs/commands/contract.md).
import type { GoldenCase } from '../../helpers/golden-cli.js';

const USER = 'fixtures/contracts/user';
/** validate --contract runs in fixtures/contracts, so the payloads' paths (and the case names) stay short. */
const IN = 'fixtures/contracts';
const OK = 'valid';
const BAD = 'invalid';

export const CONTRACT: readonly GoldenCase[] = [
  { args: ['contract', 'list'] },
  { args: ['contract', 'list', '--contracts', `${USER}/malformed`] },
  { args: ['contract', 'list', '--contracts', 'fixtures/contracts/nosuch'] },
  { args: ['contract', 'show', 'ctr.output'] },
  { args: ['contract', 'show', '--json', 'click_thesis'] },
  { args: ['contract', 'show', 'nosuch'] },
  // validate --contract: exit 4 on a violation
  { args: ['validate', '--contract', 'ctr.output', `${BAD}/ctr.output.four-hooks.json`, `${OK}/ctr.output.five-each.json`], cwd: IN },
  { args: ['validate', '--contract', 'eval.output', '--json', `${BAD}/eval.output.fail-without-reason.json`], cwd: IN },
  { args: ['validate', '--contract', 'ctr.output', `${BAD}/ctr.output.prose-instead-of-json.json`, `${BAD}/ctr.output.markdown-fenced.json`], cwd: IN },
  { args: ['validate', '--contract', 'script.output', `${OK}/script.output.addresses-thesis-early.json`], cwd: IN },
  { args: ['validate', '--contract', 'script.output', '--input', `${OK}/script.input.hook-title-thesis.json`, `${BAD}/script.output.thesis-late.json`], cwd: IN },
  { args: ['validate', '--contract', 'research.output', '-'], stdin: { file: `${IN}/${BAD}/research.output.two-items.json` }, cwd: IN },
  { args: ['validate', '--contract', 'click_thesis', '--format', 'sarif', `${BAD}/click_thesis.two-sentences.json`], cwd: IN },
  { args: ['validate', '--contract', 'acme.summary.v1', '--contracts', 'user/good', 'user/payloads/acme.summary.v1.conforms.json', 'user/payloads/acme.summary.v1.pattern-mismatch.json'], cwd: IN },
  { args: ['validate', '--contract', 'nosuch', `${OK}/ctr.output.five-each.json`], cwd: IN },
  { args: ['validate', '--contract', 'ctr.output', '--json', 'missing.json', `${OK}/ctr.output.five-each.json`], cwd: IN },
  { args: ['validate', '--contract', 'acme.unknown_keyword', '--contracts', 'user/malformed', 'user/payloads/acme.summary.v1.conforms.json'], cwd: IN },
];
