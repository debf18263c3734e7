export { checkSkillArchive, checkSkillDir, checkSkillSource, kindOfDir, kindOfNames, type SkillCheck, type SkillIdentity, type SkillKind } from './gate.js';
