/**
 * The `<available_skills>` block that agents put in their system prompt, exactly as the
 * reference library's `to-prompt` prints it: each value on its own line, HTML-escaped.
 */

export interface PromptSkill {
  readonly name: string;
  readonly description: string;
  /** Absolute path of the skill's SKILL.md. */
  readonly location: string;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** Python's `html.escape(s, quote=True)`, which the reference uses. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** The block, without a trailing newline; an empty list gives the empty block, as the reference does. */
export function renderAvailableSkills(skills: readonly PromptSkill[]): string {
  const lines = ['<available_skills>'];
  for (const s of skills) {
    lines.push('<skill>', '<name>', escapeXml(s.name), '</name>', '<description>', escapeXml(s.description), '</description>');
    lines.push('<location>', escapeXml(s.location), '</location>', '</skill>');
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}
