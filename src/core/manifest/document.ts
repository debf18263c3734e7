/** What a parsed manifest document gives its readers: data, findings and source positions. */
import type { Diagnostic } from '../diagnostics.js';

export type DocumentFormat = 'yaml' | 'json';

export interface Position {
  readonly line: number;
  readonly column: number;
}

export interface ParsedDocument {
  readonly format: DocumentFormat;
  /** The decoded text (BOM removed), or '' when the bytes were refused. */
  readonly text: string;
  /** The data, when the document parsed without errors. */
  readonly data: unknown;
  readonly diagnostics: readonly Diagnostic[];
  /** Where the value at `pointer` (or, with `key`, its key) starts; the nearest ancestor if absent. */
  locate(pointer: string, opts?: { key?: boolean }): Position | undefined;
  /** Character offsets [start, end) of the scalar at `pointer` in `text`, for in-place edits. */
  scalarRange(pointer: string): readonly [number, number] | undefined;
}

export function refused(format: DocumentFormat, diagnostics: Diagnostic[], text = ''): ParsedDocument {
  return { format, text, data: undefined, diagnostics, locate: () => undefined, scalarRange: () => undefined };
}

