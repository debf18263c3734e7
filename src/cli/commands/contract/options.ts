export interface ContractOptions {
  /** Directories of user contracts, in order (repeatable --contracts). */
  readonly contracts?: readonly string[];
}
