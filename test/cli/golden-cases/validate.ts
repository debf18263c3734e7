// Golden cases for `skillctl validate` on manifests and Agent Skills folders (docs/commands/validate.md).
import type { GoldenCase } from '../../helpers/golden-cli.js';

const VALID = 'fixtures/manifests/valid';
const INVALID = 'fixtures/manifests/invalid';
const SKILLS = 'fixtures/agent-skills';

export const VALIDATE: readonly GoldenCase[] = [
  // skill.contract.v1 manifests
  { args: ['validate', `${VALID}/node-entrypoint`] },
  { args: ['validate', VALID] },
  { args: ['validate', INVALID] },
  { args: ['validate', '--json', `${INVALID}/content-digest-mismatch`] },
  { args: ['validate', '--format', 'sarif', `${INVALID}/unknown-field-misspelt`, `${INVALID}/determinism-request-unmet`] },
  { args: ['validate', '--quiet', `${INVALID}/proto-key`, `${VALID}/content-digest-missing`] },
  // globs (quoted, so skillctl expands them)
  { args: ['validate', `${VALID}/*/skill.yaml`] },
  { args: ['validate', 'fixtures/nomatch/*.yaml'] },
  // stdin
  { args: ['validate', '-'], stdin: { file: `${VALID}/node-entrypoint/skill.yaml` } },
  // missing and empty inputs
  { args: ['validate', '--json', 'missing/path', `${VALID}/node-entrypoint`] },
  { args: ['validate'], temp: {} },
  // --fix, on temp copies; the rewritten manifest is part of the golden
  { args: ['validate', '--fix', 'content-digest-mismatch'], temp: { 'content-digest-mismatch': `${INVALID}/content-digest-mismatch` }, show: ['content-digest-mismatch/skill.yaml'] },
  { args: ['validate', '--fix', '--json', 'manifest-digest-mismatch'], temp: { 'manifest-digest-mismatch': `${INVALID}/manifest-digest-mismatch` }, show: ['manifest-digest-mismatch/skill.yaml'] },
  { args: ['validate', '--fix', 'yaml-syntax-error'], temp: { 'yaml-syntax-error': `${INVALID}/yaml-syntax-error` }, show: ['yaml-syntax-error/skill.yaml'] },
  // Agent Skills folders (SKILL.md)
  { args: ['validate', `${SKILLS}/valid`] },
  { args: ['validate', `${SKILLS}/invalid`] },
  { args: ['validate', '--json', `${SKILLS}/valid/pdf-tools`] },
  { args: ['validate', '--strict', `${SKILLS}/valid`] },
  { args: ['validate', '--fix', 'pdf-notes'], temp: { 'pdf-notes': `${SKILLS}/pinnable/pdf-notes` }, list: ['pdf-notes'] },
];
