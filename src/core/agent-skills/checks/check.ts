import type { BundleFile } from '../../bundle/index.js';
import type { Diagnostic } from '../../diagnostics.js';
import type { SkillMdDocument } from '../frontmatter.js';
import type { NameCharset } from '../model.js';

export interface CheckContext {
  /** The frontmatter mapping; fields may be of any type. */
  readonly data: Readonly<Record<string, unknown>>;
  readonly doc: SkillMdDocument;
  /** The skill folder's name, when the check runs on a folder. */
  readonly dirName?: string;
  /** The folder's files (POSIX paths relative to it), when known. */
  readonly files?: readonly BundleFile[];
  readonly nameCharset: NameCharset;
}

/**
 * One check of SKILL.md: a pure function from the parsed file to findings. Findings carry a
 * frontmatter pointer (the caller adds the line) or a body line. Severity is decided afterwards
 * by the profile, never inside a check.
 */
export interface Check {
  readonly name: string;
  check(ctx: CheckContext): Diagnostic[];
}

export function isString(v: unknown): v is string {
  return typeof v === 'string';
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `a ${typeof v}`;
}
