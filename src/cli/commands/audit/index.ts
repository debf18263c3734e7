import type { Command } from 'commander';
import type { Runner } from '../../context.js';

export function registerAudit(program: Command, run: Runner): void {
  const audit = program.command('audit').description('Work with the audit log that skillctl run appends to.');
  audit
    .command('verify')
    .description('Check every audit record against its receipt_hash and the chain of records: report altered, deleted, reordered or inserted records.')
    .argument('[file]', 'the audit log, or - for stdin (default: .skillctl/audit.jsonl in the project root)')
    .option('--head <sha256>', "the receipt_hash the log's last record must have (kept from skillctl run --json): shows a log cut short")
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl audit verify
  $ skillctl audit verify --json ci-audit.jsonl
  $ skillctl audit verify --head sha256:9f2c…           the log still ends where the last run left it

Exit status: 0 every record intact, 1 a line is malformed, altered or out of the chain (or the log
does not end at --head), 2 the log cannot be read.`,
    )
    .action(async (file: string | undefined, opts: { head?: string }) => run(async (ctx) => (await import('./run.js')).run(ctx, file, opts.head)));
  audit
    .command('diff')
    .description('Compare the fingerprints (args, result, side effects) of two audit records.')
    .argument('<a>', 'a record: a line number or a run id in the log, or a file (its last end record)')
    .argument('<b>', 'the other record, named the same ways')
    .option('--log <file>', 'the log line numbers and run ids refer to (default: .skillctl/audit.jsonl in the project root)')
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl audit diff 2 4                              the records on lines 2 and 4 of the log
  $ skillctl audit diff 3f9a0c2e7b1d4a65 9b1c0d2e3f4a5b6c  the end records of two runs
  $ skillctl audit diff ci/a.jsonl ci/b.jsonl             the last end record of each file

Exit status: 0 the fingerprints agree, 1 they differ, 2 a record cannot be found or read.`,
    )
    .action(async (a: string, b: string, opts: { log?: string }) => run(async (ctx) => (await import('./diff.js')).diff(ctx, a, b, opts.log)));
}
