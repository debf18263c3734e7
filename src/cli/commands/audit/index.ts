import type { Command } from 'commander';
import type { Runner } from '../../context.js';

export function registerAudit(program: Command, run: Runner): void {
  const audit = program.command('audit').description('Work with the audit log that skillctl run appends to.');
  audit
    .command('verify')
    .description("Check every audit record against its receipt_hash and report the lines that were altered.")
    .argument('[file]', 'the audit log, or - for stdin (default: .skillctl/audit.jsonl in the project root)')
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl audit verify
  $ skillctl audit verify --json ci-audit.jsonl

Exit status: 0 every record intact, 1 a line is malformed or tampered, 2 the log cannot be read.`,
    )
    .action(async (file: string | undefined) => run(async (ctx) => (await import('./run.js')).run(ctx, file)));
}
