/**
 * Traps for the hostile-repository suite: programs a repository names (a filter, a textconv, a
 * pager...) that leave evidence when anything starts them. Each trap writes two kinds of evidence:
 * a marker file in a directory outside the repository and outside every grant (what an escape
 * would look like with `--sandbox none`), and a line into a FIFO inside `.git`. Under bubblewrap
 * the outside directory does not exist and the grant is read-only, so the marker alone would prove
 * nothing there; a FIFO can be opened for writing on a read-only bind, so the tripwire tells that a
 * trap ran in either mode.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readdirSync, readSync } from 'node:fs';
import { appendFile, chmod, mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { seedRepo } from '../helpers/git-repo.js';
import { tempDir } from '../helpers/tmp.js';

export interface Scratch {
  /** The scratch folder: the repository and anything else the attack builds inside the grant. */
  readonly root: string;
  /** The work tree; the run's working directory and its fs.read grant. */
  readonly repo: string;
  /** A directory outside every grant, where a trap that escaped leaves its marker. */
  readonly outside: string;
  /** A script that records that it ran, then copies stdin to stdout as a filter would (or, with `cat` false, exits). */
  trap(name: string, cat?: boolean): Promise<string>;
  /** The traps that ran: markers outside, and names written to the tripwire. */
  sprung(): string[];
  close(): void;
}

/** A scratch folder with an empty `repo/` and a tripwire FIFO in `tripDir(repo)` (default repo/.git). */
export async function scratch(tripDir: (repo: string) => string = (repo) => join(repo, '.git')): Promise<Scratch> {
  const root = tempDir('skillctl-git-attack-');
  const outside = tempDir('skillctl-git-outside-');
  const repo = join(root, 'repo');
  await mkdir(repo);
  const dir = tripDir(repo);
  await mkdir(dir, { recursive: true });
  const fifo = join(dir, 'tripwire');
  execFileSync('mkfifo', [fifo]);
  // Held open for reading for the whole test, so that a trap's write never blocks.
  const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const read = (): string => {
    const buf = Buffer.alloc(65536);
    try {
      return buf.toString('utf8', 0, readSync(fd, buf));
    } catch {
      return ''; // EAGAIN: nothing written
    }
  };
  let tripped = '';
  let n = 0;
  return {
    root,
    repo,
    outside,
    async trap(name, cat = true) {
      const script = join(dir, `trap-${n++}.sh`);
      const marker = join(outside, `pwned-${name}`);
      await writeFile(script, `#!/bin/sh\ntouch '${marker}' 2>/dev/null\necho '${name}' > '${fifo}' 2>/dev/null\n${cat ? 'cat' : 'exit 1'}\n`);
      await chmod(script, 0o755);
      return script;
    },
    sprung() {
      tripped += read();
      const markers = readdirSync(outside).filter((f) => f.startsWith('pwned-'));
      return [...markers, ...tripped.split('\n')].filter((s) => s !== '').sort();
    },
    close: () => closeSync(fd),
  };
}

export type Expected = 'ok' | string;

export interface Run {
  readonly skill: 'git.status' | 'git.diff';
  readonly input: Record<string, unknown>;
  /** This run's outcome, when it differs from the row's. */
  readonly expect?: Expected;
}

export interface Setup {
  /** A commit for git.diff's `commit` target; without it the commit run is skipped. */
  readonly commit?: string;
  /** Runs to make instead of the default four (status; diff working, staged, commit). */
  readonly runs?: readonly Run[];
  /** The scrubbed environment the skill sees (and the names the policy passes). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface Attack {
  readonly name: string;
  build(s: Scratch): Promise<Setup>;
  readonly expect: Expected | { readonly none: Expected; readonly bwrap: Expected };
  /** Where the tripwire goes when `.git` is not a directory. */
  readonly tripDir?: (repo: string) => string;
}

/**
 * The seed repository, with a.txt's mtime moved so that `git status` must hash it (running its
 * clean filter) and b.txt changed, so that `git diff` runs the filter and any diff driver.
 */
export async function base(s: Scratch): Promise<string> {
  const head = await seedRepo(s.repo);
  const future = new Date(Date.UTC(2031, 0, 1));
  await utimes(join(s.repo, 'a.txt'), future, future);
  return head;
}

/** Text written as given; `latin1` writes each character below U+0100 as one byte (not UTF-8). */
export type Encoding = 'utf8' | 'latin1';
export const config = (s: Scratch, text: string, enc: Encoding = 'utf8'): Promise<void> => appendFile(join(s.repo, '.git', 'config'), Buffer.from(text, enc));
export const attributes = (s: Scratch, text: string, enc: Encoding = 'utf8'): Promise<void> => writeFile(join(s.repo, '.gitattributes'), Buffer.from(text, enc));

/** Defines a filter driver called `name` (written raw into the file), run by attributes naming `attr`. */
export async function defineFilter(s: Scratch, name: string, attr: string, enc: Encoding = 'utf8'): Promise<void> {
  const t = await s.trap('filter');
  await config(s, `[filter "${name}"]\n\tclean = ${t}\n\tsmudge = ${t}\n\tprocess = ${t}\n\trequired = true\n`, enc);
  await attributes(s, `*.txt filter=${attr}\n`, enc);
}
