/**
 * `skillctl contract list|show`, and `validate --contract` (payloads against one contract), which
 * shares this chunk: both load the contract set.
 */
import {
  checkPayloads,
  chooseContract,
  contractRules,
  loadContractSet,
  parseJsonDocument,
  PAYLOAD_MAX_BYTES,
  readPayloadFile,
  verifyContractSet,
  type ContractChoice,
  type ContractSet,
} from '../../../core/contracts/index.js';
import { diag, type Diagnostic } from '../../../core/diagnostics.js';
import { SkillctlError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { EXIT, exitCodeFor } from '../../exit.js';
import { readStdin } from '../../io.js';
import { renderContractList, renderContractShow, renderPayloads, renderUnusableContract } from '../../render/contract.js';
import { plural } from '../../render/diagnostics.js';
import { outputFormat, type ValidateOptions } from '../validate/options.js';
import { payloadsOptions, type ContractRequest } from './options.js';

/** The contract a name chooses, or its unusable files' findings; a name that chooses nothing is a usage error. */
function choose(set: ContractSet, query: string): Exclude<ContractChoice, { unknown: true }> {
  const choice = chooseContract(set, query);
  if (!('unknown' in choice)) return choice;
  throw new SkillctlError('CONTRACT_NOT_FOUND', `no contract named ${query}`, {
    hint: `known: ${set.contracts.map((c) => c.name).join(', ')} (run \`skillctl contract list\`)`,
  });
}

function renderOptions(ctx: Context, exitCode: number): { json: boolean; style: Context['style']; quiet: boolean; exitCode: number } {
  return { json: ctx.opts.json, style: ctx.style, quiet: ctx.opts.quiet, exitCode };
}

export async function run(ctx: Context, req: ContractRequest): Promise<number> {
  const loaded = await loadContractSet({ dirs: req.opts.contracts ?? [], cwd: ctx.io.cwd });
  switch (req.action) {
    case 'list': {
      const set = await verifyContractSet(loaded);
      const code = exitCodeFor(set);
      ctx.out(renderContractList(set, renderOptions(ctx, code)));
      return code;
    }
    case 'show': {
      const choice = choose(loaded, req.name);
      if ('diagnostics' in choice) {
        const code = exitCodeFor(choice);
        ctx.out(renderUnusableContract(choice.diagnostics, renderOptions(ctx, code)));
        return code;
      }
      ctx.out(renderContractShow(choice.contract, contractRules(loaded, choice.contract), renderOptions(ctx, EXIT.ok)));
      return EXIT.ok;
    }
    default: {
      const never: never = req;
      return never;
    }
  }
}

/** A payload's bytes: a file, or stdin for `-`. */
async function readPayload(ctx: Context, file: string): Promise<Uint8Array | Diagnostic> {
  if (file !== '-') return readPayloadFile(ctx.io.cwd, file);
  const bytes = await readStdin(ctx.io, PAYLOAD_MAX_BYTES);
  return bytes ?? diag('PAYLOAD_NOT_JSON', `stdin exceeds the ${PAYLOAD_MAX_BYTES}-byte bound for a payload`, { file });
}

/** The --input payload, which rules relating output to input need: unreadable, it stops the command. */
async function readInput(ctx: Context, file: string): Promise<unknown> {
  const bytes = await readPayload(ctx, file);
  if (!(bytes instanceof Uint8Array)) throw new SkillctlError(bytes.code, `--input: ${bytes.message}`);
  const { data, problems } = parseJsonDocument(bytes);
  if (problems.length > 0) throw new SkillctlError('INPUT_UNREADABLE', `--input ${file} is not a JSON document: ${problems[0]?.message ?? ''}`);
  return data;
}

/** `validate --contract NAME [FILE|-]...`: every payload against one contract; exit 4 on violation. */
export async function validatePayloads(ctx: Context, args: readonly string[], opts: ValidateOptions): Promise<number> {
  const req = payloadsOptions(args, opts, ctx.io.stdin.isTTY === true);
  const set = await loadContractSet({ dirs: req.contracts, cwd: ctx.io.cwd });
  const choice = choose(set, req.contract);
  const context = req.input !== undefined ? { context: { input: await readInput(ctx, req.input) } } : {};
  if ('contract' in choice && set.diagnostics.length > 0) ctx.note(`note: ${plural(set.diagnostics.length, 'finding')} in other contract files; run \`skillctl contract list\``);
  const check = await checkPayloads({ set, choice, query: req.contract, files: req.files, read: (file) => readPayload(ctx, file), ...context });
  const code = exitCodeFor(check);
  const text = renderPayloads(check, { ...renderOptions(ctx, code), format: outputFormat(ctx.opts.json, opts), cwd: ctx.io.cwd });
  if (text !== '') ctx.out(text);
  return code;
}
