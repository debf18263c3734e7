/**
 * `skillctl mcp`: the registry served over MCP (stdio); each tool call is one `skillctl run` of the
 * entrypoint it is bound to, under the policy in force, with an audit record.
 */
import { join, resolve } from 'node:path';
import { errnoCode, SkillctlError } from '../../../core/errors.js';
import { checkSecretPlace } from '../../../core/policy/index.js';
import { loadSkillRoots } from '../../../core/pins/index.js';
import { readRegistryView } from '../../../core/registry/index.js';
import { canonicalDigest } from '../../../core/digest/index.js';
import { mapLimited } from '../../../core/map-limited.js';
import { openAuditLog, refusalRecord, runSkill } from '../../../core/run/index.js';
import { VERSION } from '../../../generated/version.js';
import { packCatalogue, type Pack } from '../../../core/behaviour-packs/index.js';
import { packTool } from '../../../mcp/pack-tool.js';
import { limitConcurrency } from '../../../mcp/limit.js';
import { createMcpServer, MAX_CONCURRENT_RUNS, type RefusalRecorder, type ToolExecutor } from '../../../mcp/server.js';
import { approvedBindings, parseApproval } from '../../../mcp/session.js';
import { isLoopback } from '../../../mcp/wire/loopback.js';
import { LineTransport } from '../../../mcp/wire/stdio.js';
import type { Context } from '../../context.js';
import { EXIT } from '../../exit.js';
import { loadOperatorPacks } from '../../operator-packs.js';
import { fail } from '../../render/failure.js';
import { mcpToolError } from '../../render/mcp.js';
import { processFileLock, projectRootOf } from '../../project.js';
import { auditFileFor, auditPlaceFor, policyInForce, projectSkillRoots, runOptions } from '../../run-env.js';
import { auditFileExposure, servedFolderExposure } from '../../project-writes.js';
import { describeRegistry, registryLayersFor } from '../../registry-location.js';
import { renderGrouped } from '../../render/diagnostics.js';
import { projectSkillCatalogue } from '../../served-skills.js';
import type { SkillCatalogue } from '../../../mcp/skills.js';
import type { McpOptions } from './options.js';
import { approvedPinsNow, type ApprovedPins } from './approved-pins.js';
import { httpToken } from './token.js';
import { visible } from '../../../core/visible.js';

export async function run(ctx: Context, opts: McpOptions): Promise<number> {
  // The layered view `skillctl registry` shows: the project's capabilities beside the shipped ones.
  const layers = await registryLayersFor(ctx, opts.registry);
  const read = await readRegistryView(layers);
  if (!read.ok) {
    const first = read.diagnostics[0];
    throw new SkillctlError(first?.code ?? 'REGISTRY_INDEX_INVALID', first?.message ?? 'the registry cannot be read');
  }
  const cwd = ctx.io.cwd;
  const root = await projectRootOf(ctx);
  const policy = await policyInForce(ctx, root, opts.policy);
  const auditFile = auditFileFor(cwd, root, opts.audit);
  const auditPlace = auditPlaceFor(cwd, root, opts.audit);
  // The roots this server serves with --skills DIR, besides the project's (the next server's).
  const projectRoots = await projectSkillRoots(root, policy);
  const servedSkills = Array.isArray(opts.skills) ? opts.skills : [];
  // Outside a project, a plain --skills serves the default roots under the working directory
  // (served-skills.ts): the runs of this server hold them as a project's runs hold its own, or a
  // tool call could plant a skill (its allowed-tools pre-approving commands) that it then serves.
  const defaultServed = opts.skills === true && root === undefined ? (await loadSkillRoots(cwd)).roots.map((r) => join(cwd, ...r.split('/'))) : [];
  const skillRoots = [...projectRoots, ...servedSkills, ...defaultServed];
  const options = runOptions(ctx, { root, policy, auditFile, skillRoots, registries: layers.map((l) => l.dir), ...(opts.httpTokenFile !== undefined ? { trusted: [opts.httpTokenFile], secrets: [opts.httpTokenFile] } : {}) });
  if (opts.http !== undefined && !isLoopback(opts.http.host) && opts.httpAllowRemote !== true) {
    throw new SkillctlError('USAGE', `--http ${opts.http.host}:${opts.http.port} is not a loopback address; anyone who reaches it could call the tools`, {
      hint: 'listen on 127.0.0.1 (the default), or add --http-allow-remote to mean it',
    });
  }
  if (opts.httpTokenFile !== undefined && opts.http === undefined) throw new SkillctlError('USAGE', '--http-token-file is the token of the --http server, which is not asked for');
  const credential = opts.http !== undefined ? await httpToken(ctx, opts.httpTokenFile) : undefined;
  // The runs this server starts cannot read the token file (RunSetup.secrets); a skill run from a
  // terminal under a policy granting its folder can, unless it lies in a .skillctl/keys/ folder.
  if (opts.httpTokenFile !== undefined) {
    const exposed = await checkSecretPlace(resolve(cwd, opts.httpTokenFile), opts.httpTokenFile, "the --http server's bearer token");
    if (exposed.length > 0) ctx.note(renderGrouped(exposed, { style: ctx.style }));
  }
  // Files and folders of one's own, away from the project's: those a skill of a project may
  // rewrite (run started elsewhere, which this server's runs do not hold) are warned of.
  const unheld = [
    ...(typeof opts.audit === 'string' && auditFile !== undefined ? await auditFileExposure(auditFile, root) : []),
    ...(await mapLimited(layers.filter((l) => l.source === 'flag'), 1, (l) => servedFolderExposure(l.dir, 'the registry', root, []))).flat(),
    ...(await mapLimited(servedSkills, 1, (d) => servedFolderExposure(resolve(cwd, d), 'the skills folder', root, projectRoots))).flat(),
  ];
  if (unheld.length > 0) ctx.note(renderGrouped(unheld, { style: ctx.style }));
  // A call that cannot be recorded does not happen: a log that cannot be opened stops the server
  // now (AUDIT_UNWRITABLE, exit 2) rather than fail every call later.
  if (auditFile !== undefined) await (await openAuditLog(auditFile, processFileLock(true), auditPlace)).close();

  // Each call is one `skillctl run` of the bound entrypoint, with the call's arguments as input.
  // The bound on runs at once is the process's, shared by every session: over --http any client
  // may start as many sessions as it likes, and a bound per session would multiply with them.
  // What the approvals given at start cover: the skills the lock pinned then (approved-pins.ts).
  const asked = parseApproval(opts.approve ?? []);
  const approval = { ...asked, bindings: await approvedBindings(read.view, asked) };
  const pinnedAtStart: ApprovedPins = approval.all || approval.names.size > 0 ? await approvedPinsNow(root) : new Map();
  const execute: ToolExecutor = limitConcurrency(MAX_CONCURRENT_RUNS, async (call) => {
    // Opened before anything runs: a call that cannot be recorded does not happen.
    const log = auditFile !== undefined ? await openAuditLog(auditFile, processFileLock(true), auditPlace) : undefined;
    const approved = call.tool.policy.kind === 'write' && call.tool.policy.requires_approval === true;
    try {
      const result = await runSkill(
        {
          target: call.binding.skill_id,
          entrypoint: call.binding.entrypoint_id,
          input: Buffer.from(JSON.stringify(call.args)),
          retries: 0,
          sandbox: 'auto',
          readOnly: call.tool.policy.kind === 'read',
          skillIdOnly: true,
          ...(approved ? { approvedPins: pinnedAtStart.get(call.binding.skill_id) ?? [] } : {}),
        },
        { ...options, ...(log !== undefined ? { audit: log } : {}) },
      );
      return result.status === 'ok' ? { ok: true, output: result.output } : { ok: false, error: mcpToolError(result) };
    } finally {
      await log?.close();
    }
  });

  // A refused call is recorded as a denial: the log shows what the agent tried, not only what ran.
  const recordRefusal: RefusalRecorder = async (call) => {
    if (auditFile === undefined) return;
    const log = await openAuditLog(auditFile, processFileLock(true), auditPlace);
    try {
      const b = call.tool.binding;
      // Arguments with no canonical form (an unpaired surrogate) have no digest; they are still refused, and recorded.
      const args = canonicalDigest(call.args);
      await log.append(
        refusalRecord(
          {
            target: b?.skill_id ?? call.name,
            ...(b !== undefined ? { skillId: b.skill_id, entrypointId: b.entrypoint_id } : {}),
            ...(args.ok ? { inputDigest: args.value } : {}),
            policySource: policy.source,
            ...('digest' in policy ? { policyDigest: policy.digest } : {}),
            scope: `approval:${call.name}`,
            code: call.code,
            reason: call.reason,
            at: Date.now(),
          },
          VERSION,
        ),
      );
    } finally {
      await log.close();
    }
  };

  let extraPacks: readonly Pack[] = [];
  if (opts.packs !== undefined) {
    const loaded = await loadOperatorPacks(ctx, opts.packs);
    if (!('extra' in loaded)) return fail(ctx, loaded.diagnostics);
    extraPacks = loaded.extra;
  }
  let skills: SkillCatalogue | undefined;
  if (opts.skills !== undefined && opts.skills !== false) {
    const project = await projectSkillCatalogue(root ?? cwd, cwd, opts.skills === true ? [] : opts.skills);
    if (!('catalogue' in project)) return fail(ctx, project.diagnostics);
    skills = withWarnings(ctx, project.catalogue);
    // What an agent will see, and why a folder is left out, before the session starts.
    const first = await skills.list();
    const whence = project.from === 'lock' ? 'skill_roots in the lock' : project.from === 'flag' ? '--skills' : 'the default skill roots';
    ctx.note(`skillctl mcp: ${first.skills.length} skill${first.skills.length === 1 ? '' : 's'} under ${project.roots.join(', ')} (${whence})`);
  }
  const packs = packCatalogue(extraPacks).value ?? [];
  const newServer = (): ReturnType<typeof createMcpServer> =>
    createMcpServer({
      registry: layers,
      approval,
      execute,
      recordRefusal,
      version: VERSION,
      extraTools: [packTool(extraPacks)],
      packs,
      ...(skills !== undefined ? { skills } : {}),
    });
  const serving = layers.map((l) => describeRegistry(ctx, l)).join(', over ');
  if (opts.http !== undefined) {
    // Loaded only here: a stdio server never pays for the HTTP transport (wire/loopback.ts says why).
    const { serveHttp } = await import('../../../mcp/wire/http.js');
    const { token, from } = credential as NonNullable<typeof credential>;
    const http = await serveHttp(opts.http.host, opts.http.port, token, newServer, (err) => ctx.note(`skillctl mcp: ${visible(err.message)}`)).catch((err: unknown) => {
      throw listenRefused(err, opts.http as NonNullable<McpOptions['http']>);
    });
    const stop = (): void => void http.close();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    ctx.note(`skillctl mcp: serving ${serving} at ${http.url}`);
    ctx.note(
      from === 'new'
        ? `skillctl mcp: clients send Authorization: Bearer ${token} (a token for this server only; set SKILLCTL_MCP_TOKEN or --http-token-file to keep one)`
        : `skillctl mcp: clients send Authorization: Bearer <the token of ${from === 'file' ? opts.httpTokenFile ?? '' : '$SKILLCTL_MCP_TOKEN'}>`,
    );
    await http.closed;
    skills?.close();
    return EXIT.ok;
  }
  const { server, connect } = newServer();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  // The session ends when the client closes our stdin and every request it sent has its reply.
  await connect(new LineTransport(ctx.io.stdin, ctx.io.stdout));
  ctx.note(`skillctl mcp: serving ${serving} on stdio`);
  await closed;
  skills?.close();
  return EXIT.ok;
}

/**
 * Why the --http address cannot be listened on, as the user's error: a port another program holds
 * (on a shared host, maybe another account's) is where a client configured with this address
 * sends its token, which the user must hear, not an internal error.
 */
function listenRefused(err: unknown, http: NonNullable<McpOptions['http']>): unknown {
  const at = `--http ${http.host}:${http.port}`;
  switch (errnoCode(err)) {
    case 'EADDRINUSE':
      return new SkillctlError('USAGE', `${at}: the address is in use: another program listens there, and a client configured with it would send that program its token and requests`, {
        hint: 'find who holds the port (ss -ltnp), or choose another port',
      });
    case 'EACCES':
      return new SkillctlError('USAGE', `${at}: this user may not listen on that port`, { hint: 'choose a port above 1023' });
    case 'EADDRNOTAVAIL':
      return new SkillctlError('USAGE', `${at}: the address is not one of this machine's`, { hint: 'listen on 127.0.0.1 (the default)' });
    default:
      return err;
  }
}

/** The catalogue, saying on stderr why a folder is left out: at start, and again when the reason is new. */
function withWarnings(ctx: Context, catalogue: SkillCatalogue): SkillCatalogue {
  const said = new Set<string>();
  return {
    list: async () => {
      const r = await catalogue.list();
      const fresh = r.diagnostics.filter((d) => !said.has(`${d.code} ${d.file ?? ''} ${d.message}`));
      for (const d of fresh) said.add(`${d.code} ${d.file ?? ''} ${d.message}`);
      if (fresh.length > 0) ctx.note(renderGrouped(fresh, { style: ctx.style }));
      return r;
    },
    get: (path) => catalogue.get(path),
    lookup: (path, lookupOpts) => catalogue.lookup(path, lookupOpts),
    forget: (skill, file) => catalogue.forget(skill, file),
    close: () => catalogue.close(),
  };
}
