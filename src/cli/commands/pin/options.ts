export interface PinOptions {
  readonly lock?: string;
  readonly sign: string[];
  readonly signer: string[];
  readonly replace?: boolean;
  readonly all?: boolean;
  readonly trustKeys?: boolean;
  readonly minSigners?: number;
}
