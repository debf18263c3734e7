import { CODES } from '../../../core/diagnostics.js';
import { SkillctlError } from '../../../core/errors.js';
import {
  loadCapability,
  matchIntent,
  readIndex,
  summaryOf,
  type CapabilityBundle,
  type LoadError,
  type RegistryIndex,
  type RegistryLocation,
} from '../../../core/registry/index.js';
import type { Context } from '../../context.js';
import { EXIT } from '../../exit.js';
import { renderJson } from '../../render/json.js';
import { registryFor } from '../../registry-location.js';
import type { MatchOptions, RegistryOptions } from './options.js';

async function openIndex(ctx: Context, flag: string | undefined): Promise<{ where: RegistryLocation; index: RegistryIndex }> {
  const where = await registryFor(ctx, flag);
  const read = await readIndex(where.dir);
  if (!read.ok) {
    const first = read.diagnostics[0];
    throw new SkillctlError(first?.code ?? 'REGISTRY_INDEX_INVALID', `${first?.message ?? 'the registry cannot be read'}${first?.pointer !== undefined ? ` at ${first.pointer}` : ''}`, {
      hint: where.source === 'flag' ? 'check the --registry path' : `registry chosen from ${where.source}: ${where.dir}`,
    });
  }
  ctx.note(ctx.style.dim(`registry: ${where.dir} (${where.source})`));
  return { where, index: read.index };
}

export async function list(ctx: Context, opts: RegistryOptions): Promise<number> {
  const { index } = await openIndex(ctx, opts.registry);
  const capabilities = index.capabilities.map(summaryOf);
  if (ctx.opts.json) {
    ctx.out(renderJson({ capabilities }).trimEnd());
    return EXIT.ok;
  }
  if (capabilities.length === 0) ctx.out('no capabilities published');
  for (const c of capabilities) {
    ctx.out(`${ctx.style.bold(c.capability_id)}  ${c.name}: ${c.description}\n    ${ctx.style.dim('triggers:')} ${c.intent_triggers.join(', ')}`);
  }
  return EXIT.ok;
}

export async function match(ctx: Context, text: string, opts: MatchOptions): Promise<number> {
  let limit: number | undefined;
  if (opts.limit !== undefined) {
    limit = Number(opts.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new SkillctlError('USAGE', `--limit must be a positive integer, not ${JSON.stringify(opts.limit)}`);
  }
  const { index } = await openIndex(ctx, opts.registry);
  const all = matchIntent(index.capabilities, text);
  const matches = limit !== undefined ? all.slice(0, limit) : all;
  if (ctx.opts.json) {
    ctx.out(renderJson({ query: text, matches }).trimEnd());
    return EXIT.ok;
  }
  if (matches.length === 0) ctx.out(`no capability's triggers match ${JSON.stringify(text)}`);
  matches.forEach((m, i) => {
    const triggers = m.matched_triggers.map((t) => `${JSON.stringify(t.trigger)}${t.full ? '' : ' (partly)'} ← ${t.words.join(' ')}`);
    ctx.out(`${i + 1}. ${ctx.style.bold(m.capability_id)} (${m.name})  score ${m.score}\n    ${ctx.style.dim('matched:')} ${triggers.join('; ')}`);
  });
  return EXIT.ok;
}

function renderBundle(ctx: Context, b: CapabilityBundle): string {
  const tools = b.tools.map((t) => {
    const policy = t.policy.kind === 'write' ? (t.policy.requires_approval === true ? 'write, needs approval' : 'write') : 'read';
    const bound = t.binding !== undefined ? ` → ${t.binding.skill_id}#${t.binding.entrypoint_id}` : '';
    return `  ${ctx.style.bold(t.name)} (${policy})${bound}: ${t.description}`;
  });
  const ui = b.ui_schemas.map((u) => `  ${u.schema_id}${u.dialect !== undefined ? ` (${u.dialect})` : ''}`);
  return [
    ctx.style.bold(`== ${b.capability_id} (${b.version})`),
    b.skill_doc.trimEnd(),
    '',
    ctx.style.bold('Tools'),
    ...(tools.length > 0 ? tools : ['  (none)']),
    ctx.style.bold('UI schemas'),
    ...(ui.length > 0 ? ui : ['  (none)']),
  ].join('\n');
}

function renderLoadError(ctx: Context, e: LoadError): void {
  if (ctx.opts.json) {
    ctx.out(renderJson({ error: e }).trimEnd());
    return;
  }
  ctx.error(`${ctx.style.red('error')} ${e.code}: ${e.message}`);
  if (e.code === 'CAPABILITY_NOT_FOUND') {
    ctx.error(`  available: ${e.available_capabilities.length > 0 ? e.available_capabilities.join(', ') : '(none)'}`);
  } else {
    ctx.error(`  ${e.details}`);
    for (const f of e.findings) ctx.error(`  ${f.file}${f.pointer !== undefined ? ` ${f.pointer}` : ''}${f.line !== undefined ? `:${f.line}` : ''}  ${f.code}  ${f.message}`);
  }
}

export async function load(ctx: Context, ids: readonly string[], opts: RegistryOptions): Promise<number> {
  const { where, index } = await openIndex(ctx, opts.registry);
  const bundles: CapabilityBundle[] = [];
  for (const id of ids) {
    const r = await loadCapability(where.dir, index, id);
    if (!r.ok) {
      renderLoadError(ctx, r.error);
      return EXIT[CODES[r.error.code].exit];
    }
    bundles.push(r.bundle);
  }
  if (ctx.opts.json) ctx.out(renderJson({ capabilities: bundles }).trimEnd());
  else ctx.out(bundles.map((b) => renderBundle(ctx, b)).join('\n\n'));
  return EXIT.ok;
}
