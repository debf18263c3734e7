import type { Style } from '../context.js';
import type { Diagnostic, Severity } from '../../core/diagnostics.js';
import { visible, visibleLine } from '../../core/visible.js';

export interface RenderOptions {
  readonly style: Style;
}

const LABEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'info' };

function colour(style: Style, severity: Severity, text: string): string {
  switch (severity) {
    case 'error':
      return style.red(text);
    case 'warning':
      return style.yellow(text);
    case 'info':
      return style.blue(text);
    default: {
      const never: never = severity;
      return never;
    }
  }
}

/** One finding as an indented line (and a hint line), for grouping under its file. */
export function renderDiagnostic(d: Diagnostic, { style }: RenderOptions): string {
  // A message or hint may quote a skill's output, a registry's answer or a file name.
  const where = d.line !== undefined ? `${d.line}:${d.column ?? 1}` : '';
  const pointer = d.pointer !== undefined && d.pointer !== '' ? style.dim(` ${visible(d.pointer)}`) : '';
  let s = `  ${where.padEnd(7)} ${colour(style, d.severity, LABEL[d.severity].padEnd(7))} ${style.bold(visible(d.code))}  ${visible(d.message)}${pointer}`;
  if (d.hint !== undefined) s += `\n  ${' '.repeat(7)} ${style.dim('hint:')} ${visible(d.hint)}`;
  return s;
}

export interface Counts {
  errors: number;
  warnings: number;
  infos: number;
}

export function count(diagnostics: readonly Diagnostic[]): Counts {
  const c = { errors: 0, warnings: 0, infos: 0 };
  for (const d of diagnostics) {
    if (d.severity === 'error') c.errors++;
    else if (d.severity === 'warning') c.warnings++;
    else c.infos++;
  }
  return c;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Findings grouped under their file, files in the order given, each file's findings by position. */
export function renderGrouped(diagnostics: readonly Diagnostic[], opts: RenderOptions): string {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const key = d.file ?? '(input)';
    const list = byFile.get(key) ?? [];
    list.push(d);
    byFile.set(key, list);
  }
  const parts: string[] = [];
  for (const [file, list] of byFile) {
    // The file's name heads its group on one line: a name holding line breaks (git checks such
    // names out as they are) would otherwise print findings and summaries of its own.
    parts.push(opts.style.underline(visibleLine(file)));
    list.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    for (const d of list) parts.push(renderDiagnostic(d, opts));
  }
  return parts.join('\n');
}
