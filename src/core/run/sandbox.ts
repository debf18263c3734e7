/**
 * OS-level isolation with bubblewrap, for process runtimes and for the programs built-in skills
 * start (shell.exec_safe, git, rg): a fresh mount namespace holding only the system runtime
 * directories and a few /etc files (read-only), the bundle if any (read-only) and the granted
 * paths (fs.read read-only, fs.write read-write); a private /tmp; new PID, IPC, UTS and user
 * namespaces; and a new network namespace with loopback only. With net.http granted, the way out
 * is the egress proxy's socket (egress/proxy.ts), reached through the bridge (egress/bridge.ts),
 * which starts the command: every request is checked against the grant. A file outside those
 * binds does not exist inside: it is not merely refused.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
// Not through policy/index.js, which holds the policy file loader (YAML).
import { lookupCommand } from '../fs/find-command.js';
import { within } from '../policy/paths.js';
import { bwrapArgs, egressCaIn, egressSocketIn, OWN_TOP, withoutSize, type SandboxSpec } from './bwrap-args.js';
import { BRIDGE_SOURCE, EGRESS_PORT } from './egress/bridge.js';
import { programDirs, rootLayout, systemLayout } from './host-layout.js';
import { disablesUserns, mountsDescriptors, pinGrants, sizesTmpfs, type PinnedGrants } from './grant-pins.js';
import { sandboxFilter } from './seccomp.js';
import { sandboxCountsOwnProcesses, sandboxMakesUserns } from './user-namespace.js';
import { serviceCovers, type HostServices } from './host-sockets.js';
import { notDirsOnTheWay, secretDirsIn, shownGrants } from './protect-mounts.js';
import { programWritable } from './writable.js';

export { inSystemDir, programDirs, systemLayout, type SystemEntry } from './host-layout.js';

export type SandboxMode = 'auto' | 'bwrap' | 'none';

export interface SandboxRequest extends Omit<SandboxSpec, 'system' | 'notDirs' | 'hide'> {
  readonly mode: SandboxMode;
  /** Where bwrap is looked up (the scrubbed environment's PATH). */
  readonly pathEnv: string;
  /** Real paths of the policy's fs.write: bwrap or setpriv found inside one is refused (RUN_PROGRAM_WRITABLE). */
  readonly writable: readonly string[];
  /** `auto` without bubblewrap runs unconfined (the policy's allow_unsandboxed) instead of refusing. */
  readonly allowUnsandboxed: boolean;
  /** The host's services whose sockets the sandbox covers (serviceCovers). Default: none. */
  readonly services?: HostServices;
}

/**
 * Without bubblewrap, a program started by skillctl could outlive it (skillctl killed outright):
 * setpriv sets the parent-death signal, which execve keeps, so the kernel kills the program when
 * the thread that started it ends.
 */
async function unconfined(r: SandboxRequest, diagnostics: Diagnostic[]): Promise<Confinement> {
  const setpriv = await lookupCommand('setpriv', r.pathEnv, { writable: r.writable });
  const planted = programWritable('setpriv', setpriv);
  if (planted !== undefined) return { refused: planted };
  return { sandbox: 'none', prefix: setpriv.ok ? [setpriv.path, '--pdeathsig', 'KILL', '--'] : [], diagnostics };
}

/**
 * `held`: the grants' descriptors, pinned for this prefix: handed to the program after the egress
 * files (SpawnSpec.fds), and released once nothing more is started with it.
 */
type Confinement =
  | {
      readonly sandbox: 'bwrap' | 'none';
      readonly prefix: string[];
      readonly diagnostics: Diagnostic[];
      readonly held?: PinnedGrants;
      readonly filter?: Uint8Array;
      /** RLIMIT_NPROC set inside this sandbox counts its processes alone (user-namespace.ts). */
      readonly countsOwnProcesses?: true;
    }
  | { readonly refused: Diagnostic };

/**
 * What goes before a command so that it runs in the sandbox `mode` asks for: `bwrap <args> --`
 * (`bwrap`, or `auto` where bubblewrap is installed), or the parent-death guard alone (`none`,
 * which accepts running without OS isolation; or `auto` without bubblewrap when the policy
 * accepts it, with the RUN_UNSANDBOXED warning). Otherwise a refusal, RUN_SANDBOX_UNAVAILABLE:
 * without bubblewrap a process would get the user's whole file system and network, whatever the
 * grant says, so nothing runs unless someone accepted that in so many words.
 */
export async function sandboxPrefix(asked: SandboxRequest): Promise<Confinement> {
  // The grants as a sandbox shows them: what lies in a protected path, read-only or not at all.
  const r = { ...asked, ...shownGrants(asked.read, asked.write, asked.protect) };
  if (r.mode === 'none') return unconfined(r, []);
  const bwrap = await lookupCommand('bwrap', r.pathEnv, { writable: r.writable });
  const planted = programWritable('bwrap', bwrap);
  if (planted !== undefined) return { refused: planted };
  if (bwrap.ok) {
    const notDirs = await notDirsOnTheWay(r.protect, r.write);
    const covers = await serviceCovers(r.services ?? { sockets: [], dirs: [] }, [...r.read, ...r.write], [...OWN_TOP]);
    const hide = [...(await secretDirsIn(r.protect, [...r.read, ...r.write])), ...covers.dirs];
    const hideFiles = [...(r.hideFiles ?? []), ...covers.files];
    const rootEntries = [...r.read, ...r.write].includes('/') ? { rootEntries: await rootLayout() } : {};
    const byFd = await mountsDescriptors(bwrap.path);
    const sized = r.tmpfsBytes !== undefined && (await sizesTmpfs(bwrap.path)) ? { tmpfsBytes: r.tmpfsBytes } : {};
    // The grants bubblewrap mounts on their own (a read grant inside a write grant is not; `/` is
    // shown entry by entry, each the host's own), pinned where bubblewrap can take descriptors.
    const pins = byFd ? await pinGrants([...r.read.filter((g) => !r.write.some((w) => within(g, w))), ...r.write].filter((g) => g !== '/' || rootEntries.rootEntries === undefined)) : undefined;
    if (pins !== undefined && 'refused' in pins) return { refused: pins.refused };
    // The filter goes to bubblewrap on its own descriptor (SECCOMP_FD), where this machine has one.
    const filter = sandboxFilter();
    const nested = (await disablesUserns(bwrap.path)) && (await sandboxMakesUserns(bwrap.path)) ? { noNestedUserns: true as const } : {};
    const held = { ...(pins !== undefined ? { pinned: pins.numbers } : {}), ...(filter !== undefined ? { seccomp: true as const } : {}), ...nested };
    const own = (await sandboxCountsOwnProcesses(bwrap.path)) ? { countsOwnProcesses: true as const } : {};
    const done = (prefix: string[]): Confinement => ({ sandbox: 'bwrap', prefix, diagnostics: [], ...(pins !== undefined ? { held: pins } : {}), ...(filter !== undefined ? { filter } : {}), ...own });
    if (r.egress === undefined) return done([bwrap.path, ...bwrapArgs({ ...withoutSize(r), ...sized, system: await systemLayout(), notDirs, hide, hideFiles, ...rootEntries, ...held }), '--']);
    // The bridge runs on skillctl's own node, which the sandbox then shows too.
    const egress = byFd ? r.egress : { ...r.egress, byPath: true as const };
    const spec = { ...withoutSize(r), ...sized, egress, runtimeDirs: [...r.runtimeDirs, ...(await programDirs(process.execPath))], system: await systemLayout(), notDirs, hide, hideFiles, ...rootEntries, ...held };
    const bridge = [process.execPath, '-e', BRIDGE_SOURCE, '--', egressSocketIn(spec), String(EGRESS_PORT), r.egress.readsHttps ? egressCaIn(spec) : '', '--'];
    return done([bwrap.path, ...bwrapArgs(spec), '--', ...bridge]);
  }
  if (r.mode === 'bwrap') return { refused: diag('RUN_SANDBOX_UNAVAILABLE', `--sandbox bwrap: bwrap is ${bwrap.reason}`, { hint: 'install the bubblewrap package' }) };
  if (!r.allowUnsandboxed) {
    return {
      refused: diag('RUN_SANDBOX_UNAVAILABLE', `bwrap is ${bwrap.reason}: without it the process would run with the whole file system and network of this user, whatever the grant says`, {
        hint: 'install the bubblewrap package; or accept running without OS isolation with --sandbox none, or allow_unsandboxed: true in the host policy',
      }),
    };
  }
  return unconfined(r, [diag('RUN_UNSANDBOXED', 'bubblewrap is not installed; the process runs without OS-level isolation (the policy allows it)', { hint: 'install the bubblewrap package' })]);
}

/**
 * bubblewrap's own complaint, when it exited 1 having printed nothing on stdout and `bwrap: ...`
 * on stderr: it could not set the sandbox up, or (`execvp`) could not start the command in it.
 */
export function bwrapComplaint(exitCode: number | null, stdout: Uint8Array, stderr: string): { readonly message: string; readonly exec: boolean } | undefined {
  if (exitCode !== 1 || stdout.length > 0) return undefined;
  const line = /^bwrap: .*$/m.exec(stderr)?.[0];
  return line === undefined ? undefined : { message: line, exec: line.startsWith('bwrap: execvp ') };
}

/** The finding for a sandbox bubblewrap could not set up (its complaint, from bwrapComplaint). */
export function bwrapSetupFailed(complaint: string): Diagnostic {
  return diag('RUN_SANDBOX_UNAVAILABLE', `bubblewrap could not set up the sandbox: ${complaint}`, { hint: 'use --sandbox none to run without OS isolation' });
}
