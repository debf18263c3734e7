import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../../src/core/diagnostics.js';
import { dirSkillResolver, validateCapability, type CapabilityValidation, type ValidateCapabilityOptions } from '../../../src/core/registry/index.js';
import { fixture, ROOT } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

export const VALID = (name: string): string => fixture('registry', 'capabilities', 'valid', name);
export const INVALID = (name: string): string => fixture('registry', 'capabilities', 'invalid', name);
/** The built-in skill bundle, which the shipped capabilities' tools bind to. */
export const SKILLS = join(ROOT, 'manifests', 'default');

/** A private copy of a fixture bundle to mutate. */
export function copyBundle(src: string): string {
  const dir = join(tempDir('skillctl-cap-'), 'bundle');
  cpSync(src, dir, { recursive: true });
  return dir;
}

export function editJson(dir: string, file: string, fn: (doc: Record<string, unknown>) => void): void {
  const p = join(dir, file);
  const doc = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
  fn(doc);
  writeFileSync(p, JSON.stringify(doc, null, 2) + '\n');
}

export function editText(dir: string, file: string, fn: (text: string) => string): void {
  const p = join(dir, file);
  const before = readFileSync(p, 'utf8');
  const after = fn(before);
  if (after === before) throw new Error(`edit of ${file} changed nothing`);
  writeFileSync(p, after);
}

export type Json = Record<string, unknown>;
export const tools = (doc: Json): Json[] => doc.tools as Json[];
export const uiSchemas = (doc: Json): Json[] => doc.ui_schemas as Json[];

export function validate(dir: string, opts: ValidateCapabilityOptions = {}): Promise<CapabilityValidation> {
  return validateCapability(dir, { label: 'bundle', skills: dirSkillResolver([SKILLS]), ...opts });
}

/** `code pointer` pairs of the findings, for compact assertions. */
export function found(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => (d.pointer !== undefined && d.pointer !== '' ? `${d.code} ${d.pointer}` : d.code));
}

export function codes(ds: readonly Diagnostic[]): string[] {
  return [...new Set(ds.map((d) => d.code))].sort();
}
