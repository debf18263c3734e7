export interface KeygenOptions {
  readonly signer: string;
  readonly out?: string;
  readonly keys?: string;
  readonly force?: boolean;
}
