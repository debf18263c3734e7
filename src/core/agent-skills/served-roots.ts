/**
 * The roots `mcp --skills` serves, held to the directories they named when the server started.
 *
 * Threat: a local process swaps a served root folder for a link to another folder (one holding
 * `~/.ssh` copied into a SKILL.md folder, or any other skills) between listings, so that the
 * server lists, hashes and serves outside files to a remote client. Each root is resolved once (a
 * link the user named is followed then, as `validate` follows one) and its identity (device,
 * inode) kept. Every pass of the server (a listing, a read) then opens it without following a
 * link and uses it only while it is still that directory (bundle/dir-below.ts `openRoot`, the
 * check pin and validate make): a root that is a link or another directory now is
 * BUNDLE_ROOT_CHANGED, and nothing below it is listed or served, so a skill listed from it before
 * is unknown, as a deleted one is. A root that is gone lists nothing, as it always did.
 *
 * What a pass then reaches by path below a root (the walker's listings, the cache's stats) can
 * see a swap made after the check; it only finds folders and tells a kept entry unchanged (whose
 * files' identities a folder elsewhere does not have). Every folder read afresh and every file
 * served is reached through the root opened again, not followed, and checked against the same
 * identity (served.ts, served-read.ts).
 *
 * A root that does not exist at start is resolved when a pass first finds it, and held from then:
 * it names what a start at that moment would have resolved.
 */
import { realpathSync, statSync } from 'node:fs';
import { openRoot, RootChanged, rootChangedFound, syncDirOps, type DirOps, type RootIdentity } from '../bundle/index.js';
import type { Diagnostic } from '../diagnostics.js';

/** A root to serve: absolute, and how it is named in findings. */
export interface ServedRoot {
  readonly dir: string;
  readonly label: string;
}

/** A root resolved: `dir` its real path, `identity` the directory that was there. */
export interface HeldRoot extends ServedRoot {
  readonly identity: RootIdentity;
}

/** The roots a pass may use, and a finding for each held root that is no longer its directory. */
export interface CheckedRoots {
  readonly roots: readonly HeldRoot[];
  readonly diagnostics: readonly Diagnostic[];
}

/** `root` resolved now, or undefined when there is no directory there. */
export function holdRoot(root: ServedRoot): HeldRoot | undefined {
  try {
    const dir = realpathSync(root.dir);
    const st = statSync(dir);
    return st.isDirectory() ? { dir, label: root.label, identity: { dev: st.dev, ino: st.ino } } : undefined;
  } catch {
    return undefined;
  }
}

/** The roots of one server, resolved at start (`new`), checked at each pass (`check`). */
export class ServedRoots {
  readonly #roots: { readonly given: ServedRoot; held: HeldRoot | undefined }[];

  constructor(
    roots: readonly ServedRoot[],
    readonly ops: DirOps = syncDirOps,
  ) {
    this.#roots = roots.map((given) => ({ given, held: holdRoot(given) }));
  }

  /** Every root resolved so far, whether it is still its directory or not. */
  held(): HeldRoot[] {
    return this.#roots.flatMap((r) => (r.held !== undefined ? [r.held] : []));
  }

  /** The roots still the directories they were resolved to, in root order. */
  async check(): Promise<CheckedRoots> {
    const openDir = this.ops.openDir?.bind(this.ops);
    const roots: HeldRoot[] = [];
    const diagnostics: Diagnostic[] = [];
    for (const r of this.#roots) {
      const held = (r.held ??= holdRoot(r.given));
      if (held === undefined) continue;
      if (openDir === undefined) {
        roots.push(held);
        continue;
      }
      try {
        await (await openRoot(openDir, held.dir, held.identity, false)).close();
        roots.push(held);
      } catch (err) {
        // Gone (or unreadable): nothing is listed, as before; replaced: said once, on stderr.
        if (err instanceof RootChanged) {
          diagnostics.push({
            ...rootChangedFound(),
            message: 'the skill root was replaced (by a symbolic link or another directory) since the server found it',
            file: held.label,
            hint: 'nothing under it is served until the folder found at start is back there, or the server is restarted',
          });
        }
      }
    }
    return { roots, diagnostics };
  }
}
