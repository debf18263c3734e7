/** What a server serves of a skill: its entry (frontmatter, every file with its size and digest) and where its files are. */
import type { RootIdentity } from '../bundle/index.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import type { FileIdentity } from './served-walk.js';

/** One file of a served skill, as its listing has it. */
export interface ServedFile {
  /** POSIX path relative to the skill's folder. */
  readonly path: string;
  readonly size: number;
  readonly digest: Sha256Digest;
  /** The identity of the file that was hashed; undefined for a made file. */
  readonly identity?: FileIdentity;
  /** The bytes of a file made rather than read: the SKILL.md of a skill.contract.v1 bundle. */
  readonly made?: Buffer;
}

export interface ServedSkill {
  /** The skill's path in the namespace (`acme/billing/refunds`); its last segment is `name`. */
  readonly path: string;
  /** The frontmatter `name`, equal to the folder's name. */
  readonly name: string;
  /** How the folder is named in findings (relative to the project root, or as given). */
  readonly label: string;
  /** The frontmatter as parsed, every field, as the extension's `skills/list` carries it. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Every file of the folder (SKILL.md included), in path order; .skillignore'd files are not part of it. */
  readonly files: readonly ServedFile[];
  /** The folder, absolute. */
  readonly dir: string;
  /** The root it was found under (`dir` or above it): reads open the directories from there down, following no link. */
  readonly base?: string;
  /** The directory `base` must still be for a read (served-roots.ts); unchecked when undefined. */
  readonly baseId?: RootIdentity;
}

export interface ServedSkills {
  readonly skills: readonly ServedSkill[];
  /** Why a folder is not served. */
  readonly diagnostics: readonly Diagnostic[];
}
