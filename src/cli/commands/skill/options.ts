export interface SkillOptions {
  readonly profile?: string;
  readonly maxChars?: string;
  readonly stdin?: boolean;
  readonly packs?: string;
}
