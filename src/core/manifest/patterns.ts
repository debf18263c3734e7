import contractSchema from '../../../schemas/skill.contract.v1.schema.json' with { type: 'json' };

// Taken from the schema so that the patterns used to check user input (init, convert) and the
// schema the manifest is validated against cannot drift apart.
const props = contractSchema.properties;

/** skill_id: lowercase letters and digits, with . _ - between them. */
export const SKILL_ID_PATTERN = new RegExp(props.skill_id.pattern);
export const SKILL_ID_MAX_LENGTH: number = props.skill_id.maxLength;
/** skill_version: a semantic version. */
export const SKILL_VERSION_PATTERN = new RegExp(props.skill_version.pattern);
/** entrypoint_id and tool_profile_id. */
export const ID_PATTERN = new RegExp(contractSchema.$defs.id.pattern);
export const ID_MAX_LENGTH: number = contractSchema.$defs.id.maxLength;
/**
 * One exact release of an interpreter or of skillctl: major.minor.patch, optionally a prerelease.
 * Ranges, tags and channels float to whatever is newest, and a partial version is a range.
 */
export const EXACT_RUNTIME_VERSION = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
