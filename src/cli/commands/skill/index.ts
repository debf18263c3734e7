import type { Command } from 'commander';
import type { Runner } from '../../context.js';
import type { SkillOptions } from './options.js';

export function registerSkill(program: Command, run: Runner): void {
  program
    .command('skill')
    .description('Print a behaviour pack: BM-L1 guidance for an agent, cut to a character budget.')
    .option('-p, --profile <name>', 'daily, strict, research or teamlead, or a profile from --packs (default: daily)')
    // The bounds are PACK_MIN_CHARS and PACK_MAX_CHARS written out: a command's index stays free of
    // the core (test/architecture/chunks.test.ts); test/cli/skill.test.ts holds them equal.
    .option('--max-chars <n>', 'budget in characters (code points), clamped to 600..16000 (default: the whole pack)')
    .option('--stdin', 'read the request from stdin as JSON: {"profile": "daily", "max_chars": 2000}')
    .option('--packs <dir>', 'also offer the operator packs in DIR (<profile>.yaml files, validated)')
    .addHelpText(
      'after',
      `
Prints the pack text exactly, with no trailing newline; --json wraps it as
{"line_protocol": true, "text": ..., "max_chars": <effective budget>, ...}.

Examples:
  $ skillctl skill                                   the daily pack, whole
  $ skillctl skill --profile strict --max-chars 1200 what a runner injects into a prompt
  $ echo '{"profile":"research","max_chars":800}' | skillctl skill --stdin
  $ skillctl skill --packs ./packs --profile acme-oncall --json`,
    )
    .action(async (opts: SkillOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, opts)));
}
