export { createSkill, type CreatedSkill, type CreateSkillRequest } from './create.js';
export { scaffoldSkill, SKILL_FORMATS, type Scaffold, type ScaffoldSpec, type SkillFormat } from './scaffold.js';
export { scriptTemplate, type ScriptTemplate } from './templates.js';
