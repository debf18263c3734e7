/** Verified skills as pull.ts hands them to placeSkills, for the placement tests. */
import { sha256 } from '../../src/core/digest/index.js';
import type { PulledSkill } from '../../src/core/mcp-skills/index.js';

/** `name`'s skill from the test server: SKILL.md (version 0.1.0, so that it can be pinned), and notes.md holding `body`. */
export function pulledSkill(name: string, body: string): PulledSkill {
  const files = [`---\nname: ${name}\ndescription: ${body}\nmetadata:\n  version: "0.1.0"\n---\n`, `${body}\n`].map((text, i) => {
    const bytes = Buffer.from(text);
    return { path: i === 0 ? 'SKILL.md' : 'notes.md', digest: sha256(bytes), size: bytes.length, bytes };
  });
  return { uri: `skill://${name}/SKILL.md`, name, frontmatter: { name, description: body, metadata: { version: '0.1.0' } }, files };
}
