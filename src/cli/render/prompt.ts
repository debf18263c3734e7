/** What `skillctl prompt` prints: the JSON document, or the `<available_skills>` block. */
import { renderAvailableSkills, type PromptSkill } from '../../core/agent-skills/index.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import { renderJson } from './json.js';
import { visible } from '../../core/visible.js';

/** With any error, no skill is listed: fail closed, as the block does. */
export function promptJson(skills: readonly PromptSkill[], diagnostics: readonly Diagnostic[], exitCode: number): string {
  return renderJson({ skills: exitCode === 0 ? skills : [], diagnostics }).trimEnd();
}

/** XML-escaped by the core; control characters (which XML 1.0 forbids anyway) made visible here. */
export function renderPrompt(skills: readonly PromptSkill[]): string {
  return visible(renderAvailableSkills(skills));
}
