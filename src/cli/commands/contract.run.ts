import { isAbsolute, join } from 'node:path';
import {
  checkPayloadBytes,
  compileContract,
  contractRules,
  findContract,
  loadContractSet,
  parseJsonDocument,
  verifyContractSet,
  type Contract,
  type ContractSet,
} from '../../core/contracts/index.js';
import { diag, sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import { SkillctlError } from '../../core/errors.js';
import { readBounded, refusalDiagnostic } from '../../core/fs/index.js';
import { MANIFEST_MAX_BYTES } from '../../core/manifest/index.js';
import type { Context } from '../context.js';
import { exitCodeFor } from '../exit.js';
import { readStdin } from '../io.js';
import { count, plural, renderGrouped } from '../render/diagnostics.js';
import { renderJson } from '../render/json.js';
import { renderSarif } from '../render/sarif.js';
import type { ContractOptions } from './contract.js';
import type { ValidateOptions } from './validate.js';
import { pushAll } from '../../core/findings.js';

/** Payloads are bounded like manifests: enough for any real exchange, refused before parsing beyond. */
const PAYLOAD_MAX_BYTES = MANIFEST_MAX_BYTES;

function summary(c: Contract): Record<string, unknown> {
  return {
    name: c.name,
    family: c.family,
    version: c.version,
    id: c.id,
    title: c.title ?? null,
    description: c.description ?? null,
    origin: c.origin,
    file: c.file,
    digest: c.digest,
    uses: c.uses,
  };
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => rows.reduce((w, r) => Math.max(w, (r[i] ?? '').length), 0)) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
}

/** The contract `query` names, or the findings that make it unusable; unknown names are a usage error. */
function resolve(set: ContractSet, query: string): { contract: Contract } | { diagnostics: Diagnostic[] } {
  const contract = findContract(set, query);
  if (contract !== undefined) return { contract };
  const files = new Set(set.rejected.filter((r) => r.name === query || r.name?.replace(/\.v\d+$/, '') === query).map((r) => r.file));
  if (files.size > 0) return { diagnostics: set.diagnostics.filter((d) => d.file !== undefined && files.has(d.file)) };
  throw new SkillctlError('CONTRACT_NOT_FOUND', `no contract named ${query}`, {
    hint: `known: ${set.contracts.map((c) => c.name).join(', ')} (run \`skillctl contract list\`)`,
  });
}

async function list(ctx: Context, opts: ContractOptions): Promise<number> {
  const set = await verifyContractSet(await loadContractSet({ dirs: opts.contracts ?? [], cwd: ctx.io.cwd }));
  const code = exitCodeFor(set.diagnostics);
  if (ctx.opts.json) {
    ctx.out(renderJson({ contracts: set.contracts.map(summary), rejected: set.rejected, diagnostics: set.diagnostics }).trimEnd());
    return code;
  }
  const rows = [['NAME', 'ORIGIN', 'TITLE'], ...set.contracts.map((c) => [c.name, c.origin === 'builtin' ? 'built-in' : c.file, c.title ?? ''])];
  ctx.out(table(rows));
  if (set.diagnostics.length > 0) ctx.out('\n' + renderGrouped(set.diagnostics, { style: ctx.style }));
  const c = count(set.diagnostics);
  const line = `${plural(set.contracts.length, 'contract')} usable${set.rejected.length > 0 ? `, ${set.rejected.length} rejected` : ''}; ${plural(c.errors, 'error')}`;
  if (!ctx.opts.quiet || code !== 0) ctx.out((code === 0 ? ctx.style.green('✔ ') : ctx.style.red('✖ ')) + line);
  return code;
}

async function show(ctx: Context, name: string, opts: ContractOptions): Promise<number> {
  const set = await loadContractSet({ dirs: opts.contracts ?? [], cwd: ctx.io.cwd });
  const found = resolve(set, name);
  if ('diagnostics' in found) {
    if (ctx.opts.json) ctx.out(renderJson({ contract: null, diagnostics: found.diagnostics }).trimEnd());
    else ctx.out(renderGrouped(found.diagnostics, { style: ctx.style }));
    return exitCodeFor(found.diagnostics);
  }
  const c = found.contract;
  const rules = contractRules(set, c);
  if (ctx.opts.json) {
    ctx.out(renderJson({ contract: summary(c), rules, schema: c.schema }).trimEnd());
    return 0;
  }
  const head = [
    ctx.style.bold(c.name) + (c.title !== undefined ? `  ${c.title}` : ''),
    ...(c.description !== undefined ? [c.description] : []),
    '',
    table([
      ['$id', c.id],
      ['file', `${c.file}${c.origin === 'builtin' ? ' (built-in)' : ''}`],
      ['digest', c.digest],
      ['uses', c.uses.length > 0 ? c.uses.join(', ') : '-'],
    ]),
    '',
  ];
  const rows = [['PATH', 'RULE', 'CODE', 'FROM'], ...rules.map((r) => [r.path, `${r.keyword} ${JSON.stringify(r.value)}`, r.code, r.source])];
  ctx.out([...head, table(rows)].join('\n'));
  return 0;
}

export async function run(ctx: Context, req: { action: 'list'; opts: ContractOptions } | { action: 'show'; name: string; opts: ContractOptions }): Promise<number> {
  switch (req.action) {
    case 'list':
      return list(ctx, req.opts);
    case 'show':
      return show(ctx, req.name, req.opts);
    default: {
      const never: never = req;
      return never;
    }
  }
}

/** The bytes of a payload file or stdin, or the finding that stops it being checked. */
async function readPayload(ctx: Context, file: string): Promise<Uint8Array | Diagnostic> {
  if (file === '-') {
    const bytes = await readStdin(ctx.io, PAYLOAD_MAX_BYTES);
    return bytes ?? diag('PAYLOAD_NOT_JSON', `stdin exceeds the ${PAYLOAD_MAX_BYTES}-byte bound for a payload`, { file });
  }
  const abs = isAbsolute(file) ? file : join(ctx.io.cwd, file);
  const r = await readBounded(abs, { maxBytes: PAYLOAD_MAX_BYTES });
  return r.ok ? r.bytes : refusalDiagnostic(r, file, 'PAYLOAD_NOT_JSON');
}

async function readInput(ctx: Context, file: string): Promise<unknown> {
  const bytes = await readPayload(ctx, file);
  if (!(bytes instanceof Uint8Array)) throw new SkillctlError(bytes.code, `--input: ${bytes.message}`);
  const { data, problems } = parseJsonDocument(bytes);
  if (problems.length > 0) throw new SkillctlError('INPUT_UNREADABLE', `--input ${file} is not a JSON document: ${problems[0]?.message ?? ''}`);
  return data;
}

/** `validate --contract NAME [FILE|-]...`: every payload against one contract; exit 4 on violation. */
export async function validatePayloads(ctx: Context, args: readonly string[], opts: ValidateOptions): Promise<number> {
  if (opts.contract === undefined) throw new SkillctlError('USAGE', '--contracts and --input go with --contract NAME');
  if (opts.fix === true) throw new SkillctlError('USAGE', '--fix rewrites manifests; it does not apply to --contract');
  let files = [...args];
  if (files.length === 0) {
    if (ctx.io.stdin.isTTY === true) throw new SkillctlError('USAGE', 'give payload files, or - to read one from stdin');
    files = ['-'];
  }
  if (opts.input === '-' && files.includes('-')) throw new SkillctlError('USAGE', 'stdin cannot be both the payload and --input');
  const set = await loadContractSet({ dirs: opts.contracts ?? [], cwd: ctx.io.cwd });
  const found = resolve(set, opts.contract);
  const input = opts.input !== undefined ? { input: await readInput(ctx, opts.input) } : {};
  let docs: Record<string, unknown>[] = [];
  let all: Diagnostic[] = [];
  let label = opts.contract;
  let checked = false;
  if ('diagnostics' in found) {
    all = found.diagnostics;
    docs = [{ file: all[0]?.file ?? null, contract: opts.contract, valid: false, diagnostics: all }];
  } else {
    label = found.contract.name;
    const others = set.diagnostics.length;
    if (others > 0) ctx.note(`note: ${plural(others, 'finding')} in other contract files; run \`skillctl contract list\``);
    const validator = await compileContract(set, found.contract);
    if ('error' in validator) {
      all = [{ ...validator.error, file: found.contract.file }];
      docs = [{ file: found.contract.file, contract: label, valid: false, diagnostics: all }];
    } else {
      checked = true;
      for (const file of files) {
        const bytes = await readPayload(ctx, file);
        // An unreadable payload file was not checked: `valid` is null, and it is not counted as a violation.
        const r = bytes instanceof Uint8Array ? checkPayloadBytes(bytes, validator, { file, ...input }) : { file, valid: null, diagnostics: [bytes] };
        docs.push({ file, contract: label, valid: r.valid, diagnostics: r.diagnostics });
        pushAll(all, r.diagnostics);
      }
    }
  }
  all = sortDiagnostics(all);
  const code = exitCodeFor(all);
  const format = ctx.opts.json ? 'json' : (opts.format ?? 'human');
  if (format === 'json') ctx.out(renderJson(docs).trimEnd());
  else if (format === 'sarif') ctx.out(renderSarif(all, ctx.io.cwd).trimEnd());
  else {
    const shown = ctx.opts.quiet ? all.filter((d) => d.severity === 'error') : all;
    if (shown.length > 0) ctx.out(renderGrouped(shown, { style: ctx.style }));
    const bad = docs.filter((d) => d.valid === false).length;
    const unread = docs.filter((d) => d.valid === null).length;
    const c = count(all);
    const verdict = bad === 0 ? (unread === 0 ? 'all conform' : 'none violates it') : `${bad} violate${bad === 1 ? 's' : ''} it`;
    const line = checked
      ? `${plural(docs.length - unread, 'payload')} checked against ${label}: ${verdict}${unread > 0 ? `; ${unread} could not be read` : ''}; ${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}`
      : `contract ${label} is not usable (${plural(c.errors, 'error')}); no payload checked`;
    if (!ctx.opts.quiet || code !== 0) ctx.out((code === 0 ? ctx.style.green('✔ ') : ctx.style.red('✖ ')) + line);
  }
  return code;
}
