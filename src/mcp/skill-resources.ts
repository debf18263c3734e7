/**
 * A served skill's files as MCP resources: the `skill://` URI of a skill or file, a file's
 * metadata (MIME type by extension), and the children a `resources/directory/read` of one of the
 * skill's directories answers (skills.ts serves them).
 */
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { SERVED_SKILL_MD, type ServedFile, type ServedSkill } from '../core/agent-skills/index.js';

const enc = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

/** `skill://<skill-path>[/<file-path>]`, each segment percent-encoded. */
export function skillUri(skillPath: string, file?: string): string {
  return `skill://${enc(skillPath)}${file === undefined ? '' : `/${enc(file)}`}`;
}

const MIME: Record<string, string> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'application/x-sh',
  js: 'text/javascript',
  ts: 'text/x-typescript',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

export function mimeOf(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? undefined : MIME[path.slice(dot + 1).toLowerCase()];
}

/** A file's resource metadata (SKILL.md's carries the skill's name and description, as the SEP asks). */
export function fileResource(s: ServedSkill, f: ServedFile): Resource {
  const mime = mimeOf(f.path);
  const base: Resource = { uri: skillUri(s.path, f.path), name: f.path.slice(f.path.lastIndexOf('/') + 1), size: f.size, ...(mime !== undefined ? { mimeType: mime } : {}) };
  if (f.path !== SERVED_SKILL_MD) return base;
  return { ...base, name: s.name, ...(typeof s.frontmatter.description === 'string' ? { description: s.frontmatter.description } : {}) };
}

/** Each skill's directories and their children, made once for an entry (a walk reads every directory of it). */
const directoriesOf = new WeakMap<ServedSkill, ReadonlyMap<string, readonly Resource[]>>();

/** Every directory of `s` that holds a file, below it or in it ('' for the root), with its children: files, then subdirectories by name. */
function directories(s: ServedSkill): ReadonlyMap<string, readonly Resource[]> {
  const kept = directoriesOf.get(s);
  if (kept !== undefined) return kept;
  const files = new Map<string, Resource[]>([['', []]]);
  const subdirs = new Map<string, Set<string>>();
  for (const f of s.files) {
    let dir = '';
    for (let from = 0, slash = f.path.indexOf('/'); slash >= 0; from = slash + 1, slash = f.path.indexOf('/', from)) {
      let names = subdirs.get(dir);
      if (names === undefined) subdirs.set(dir, (names = new Set()));
      names.add(f.path.slice(from, slash));
      dir = f.path.slice(0, slash);
    }
    let here = files.get(dir);
    if (here === undefined) files.set(dir, (here = []));
    here.push(fileResource(s, f));
  }
  const made = new Map<string, readonly Resource[]>();
  for (const dir of new Set([...files.keys(), ...subdirs.keys()])) {
    const prefix = dir === '' ? '' : `${dir}/`;
    const sub = [...(subdirs.get(dir) ?? [])].sort().map((d): Resource => ({ uri: skillUri(s.path, `${prefix}${d}`), name: d, mimeType: 'inode/directory' }));
    made.set(dir, [...(files.get(dir) ?? []), ...sub]);
  }
  directoriesOf.set(s, made);
  return made;
}

/** The direct children of directory `dir` (a path below the skill's root; '' for the root), or undefined when it holds no file. */
export function children(s: ServedSkill, dir: string): Resource[] | undefined {
  const kids = directories(s).get(dir);
  return kids === undefined ? undefined : [...kids];
}
