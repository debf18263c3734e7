import type { CliIO } from './io.js';

export interface GlobalOptions {
  /** One JSON document on stdout instead of human output. */
  readonly json: boolean;
  /** False with --no-color or NO_COLOR; FORCE_COLOR forces it on. */
  readonly color: boolean;
  /** Only errors on stderr; results still go to stdout. */
  readonly quiet: boolean;
  /** Stack traces for internal errors. */
  readonly debug: boolean;
}

export interface Context {
  readonly io: CliIO;
  readonly opts: GlobalOptions;
  readonly style: Style;
  /** Results: human text or the JSON document. */
  out(text: string): void;
  /** Progress and warnings (suppressed by --quiet). */
  note(text: string): void;
  /** Errors (never suppressed). */
  error(text: string): void;
}

/** Colour only on a terminal, honouring NO_COLOR (any non-empty value) and FORCE_COLOR. */
export function colorEnabled(io: CliIO, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  if (io.env.TERM === 'dumb') return false;
  return io.stdoutIsTTY !== undefined ? io.stdoutIsTTY() : io.stdout.isTTY === true;
}

/** The few text styles the renderers use; identity functions when colour is off. */
export interface Style {
  red(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
  underline(s: string): string;
}

const plain = (s: string): string => s;
export const PLAIN: Style = { red: plain, yellow: plain, blue: plain, green: plain, dim: plain, bold: plain, underline: plain };

/** Colour styles; chalk (and the terminal probing it does on load) only when colour is on. */
export async function loadStyle(color: boolean): Promise<Style> {
  if (!color) return PLAIN;
  const { Chalk } = await import('chalk');
  return new Chalk({ level: 1 });
}

export function makeContext(io: CliIO, opts: GlobalOptions, style: Style = PLAIN): Context {
  const line = (s: string): string => (s.endsWith('\n') ? s : s + '\n');
  return {
    io,
    opts,
    style,
    out: (text) => (io.writeOut !== undefined ? io.writeOut(line(text)) : void io.stdout.write(line(text))),
    note: (text) => {
      if (!opts.quiet && !opts.json) io.stderr.write(line(text));
    },
    error: (text) => void io.stderr.write(line(text)),
  };
}

/** Runs a command body with the context built from the global options, and records its exit code. */
export type Runner = (fn: (ctx: Context) => Promise<number>) => Promise<void>;
