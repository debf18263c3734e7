export interface VerifyPinsOptions {
  readonly lock?: string;
  readonly minSigners?: number;
}
