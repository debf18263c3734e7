/**
 * The skills of an `<available_skills>` block (`skillctl prompt`): each folder read as
 * skills-ref's read-properties reads it. Agents tell skills apart by name and see only one of
 * two with the same name, so a name used twice is reported (AGENT_SKILL_NAME_DUPLICATE). The caller
 * prints no block when there is an error (a catalogue missing a skill the user named is worse than none).
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { skillNameKey } from './checks/name.js';
import type { PromptSkill } from './prompt.js';
import { readAgentSkill } from './read-properties.js';
import { pushAll } from '../findings.js';

export interface PromptCatalogue {
  /** The skills that could be read, in the order of the folders. */
  readonly skills: readonly PromptSkill[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Reads each folder (`dir` absolute, `label` as the user named it). */
export async function readPromptSkills(dirs: readonly { readonly dir: string; readonly label: string }[]): Promise<PromptCatalogue> {
  const skills: PromptSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, string>();
  for (const { dir, label } of dirs) {
    const r = await readAgentSkill(dir, label);
    pushAll(diagnostics, r.diagnostics);
    if (r.properties === undefined || r.location === undefined) continue;
    // By the name as the reference reads it: `ｈｅｌｌｏ` beside `hello` is one name to an agent.
    const key = skillNameKey(r.properties.name);
    const first = seen.get(key);
    if (first !== undefined) {
      diagnostics.push(
        diag('AGENT_SKILL_NAME_DUPLICATE', `skill name ${JSON.stringify(r.properties.name)} is also used by ${first}`, {
          file: r.file,
          hint: 'agents tell skills apart by name; rename one of them',
        }),
      );
    } else seen.set(key, r.file);
    skills.push({ name: r.properties.name, description: r.properties.description, location: r.location });
  }
  return { skills, diagnostics };
}
