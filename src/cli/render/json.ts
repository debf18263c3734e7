import { visible } from '../../core/visible.js';

/**
 * The one JSON document a command prints with --json: 2-space indented, trailing newline.
 * JSON.stringify escapes only U+0000-U+001F; DEL and the C1 range (the 8-bit CSI, U+009B) it
 * leaves raw in strings, where a terminal showing the document would obey them. Outside strings
 * the text has no such character, so escaping them everywhere is still the same JSON.
 */
export function renderJson(value: unknown): string {
  return visible(JSON.stringify(value, null, 2)) + '\n';
}
