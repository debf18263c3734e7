export interface ConvertOptions {
  readonly to?: 'manifest' | 'skill-md';
  readonly force?: boolean;
  readonly id?: string;
  readonly skillVersion?: string;
  readonly name?: string;
  readonly pythonVersion?: string;
  readonly nodeVersion?: string;
  readonly shellVersion?: string;
  readonly nameCharset?: 'ascii' | 'unicode';
}

/** The --<runtime>-version flag given for scripts of `runtime`, if any. */
export function versionFlag(opts: ConvertOptions, runtime: 'python' | 'node' | 'shell'): string | undefined {
  switch (runtime) {
    case 'python':
      return opts.pythonVersion;
    case 'node':
      return opts.nodeVersion;
    case 'shell':
      return opts.shellVersion;
    default: {
      const never: never = runtime;
      return never;
    }
  }
}
