// Golden cases for `skillctl skill`, the behaviour packs (docs/commands/skill.md). Plain requests
// take the fast path in bin/skillctl.js, the others the full command; both must print these bytes.
import type { GoldenCase } from '../../helpers/golden-cli.js';

const PACKS = 'fixtures/packs/operator';

export const SKILL: readonly GoldenCase[] = [
  { args: ['skill'] },
  { args: ['skill', '--profile', 'teamlead', '--max-chars', '700'] },
  { args: ['skill', '-p', 'strict', '--max-chars', '1200'] },
  { args: ['skill', '--max-chars', '5'] },
  { args: ['skill', '--json', '--profile', 'research', '--max-chars', '400'] },
  { args: ['skill', '--json', '--profile', 'nope'] },
  { args: ['skill', '--max-chars', '2.5', '--profile', 'deep'] },
  { args: ['skill', 'extra'] },
  // requests on stdin
  { args: ['skill', '--stdin'], stdin: '{"profile": "research", "max_chars": 300}' },
  { args: ['skill', '--stdin'], label: 'misspelt', stdin: '{"maxChars": 10}' },
  { args: ['skill', '--stdin', '--profile', 'daily'] },
  // operator packs
  { args: ['skill', '--packs', `${PACKS}/valid`, '--profile', 'acme-oncall'] },
  { args: ['skill', '--packs', `${PACKS}/invalid/duplicate-key`] },
  { args: ['skill', '--packs', 'fixtures/packs/nosuch'] },
];
