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
