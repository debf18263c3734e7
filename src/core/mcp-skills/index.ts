export { splitCommand } from './argv.js';
export { MCP_SKILL_CODES, type McpSkillCode } from './codes.js';
export { connectSkillServer, serverLabel, ServerFailure, SKILLS_EXTENSION, type ConnectOptions, type ServerAddress, type SkillServer } from './connection.js';
export type { PulledFile, PulledSkill } from './fetch-skill.js';
export { DEFAULT_PULL_LIMITS, maxMessageBytes, type PullLimits } from './limits.js';
export { ORIGINS_FILE, readOrigins, sameOrigin, type McpOrigin, type OriginFile, type Origins } from './origins.js';
export { originKey, placeSkills, type Placed, type PlaceOptions, type PlaceResult } from './place.js';
export { pullFrom, pullSkills, type PullOptions, type PullRequest, type PullResult } from './pull.js';
export { parseSkillUri, SKILL_SCHEME, type SkillUri } from './uri.js';
