// Golden cases for what every command shares: version, help, and refused command lines.
import type { GoldenCase } from '../../helpers/golden-cli.js';

/** Every command, in the order `skillctl --help` lists them. */
const COMMANDS: readonly (readonly string[])[] = [
  ['validate'],
  ['contract'],
  ['init'],
  ['convert'],
  ['prompt'],
  ['skill'],
  ['run'],
  ['audit'],
  ['registry'],
  ['mcp'],
  ['pack'],
  ['pin'],
  ['verify-pins'],
  ['keygen'],
];

export const GENERAL: readonly GoldenCase[] = [
  { args: ['--version'] },
  { args: [] },
  { args: ['--help'] },
  ...COMMANDS.map((cmd): GoldenCase => ({ args: [...cmd, '--help'] })),
  // Refused command lines: exit 2, the reason on stderr, or as the --json error document.
  { args: ['nosuch'] },
  { args: ['--json', 'nosuch'] },
  { args: ['validate', '--bogus'] },
  { args: ['validate', '--json', '--bogus'] },
  { args: ['run', '--json'] },
  // An empty value would mean the working directory to a path resolver; in a temp dir, in case it did.
  { args: ['pack', '--out', '', '<ROOT>/manifests/default/fs.read_text'], temp: {} },
  { args: ['validate', '--format', 'xml', 'manifests'] },
];
