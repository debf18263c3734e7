export interface RegistryOptions {
  /** --registry DIR */
  readonly registry?: string;
}

export interface MatchOptions extends RegistryOptions {
  readonly limit?: string;
}

export type PublishOptions = RegistryOptions;
