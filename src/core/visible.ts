/**
 * Text from outside (a skill's stderr, a registry's or MCP server's error message, a SKILL.md
 * description, an archive entry's name) made safe to print on a terminal. Threat: a control
 * character reaching the terminal is a command to it. ESC and the 8-bit CSI (U+009B) start escape
 * sequences that set the window title, write the clipboard (OSC 52), move the cursor or erase
 * lines; CR and backspace overwrite skillctl's own lines; BEL rings. Every C0 control but newline
 * and tab, DEL, and the C1 range U+0080-U+009F are shown as the JSON escape `\u001b`, so the
 * human output reads as `--json` does. Backslashes are left alone: the result is for reading,
 * not for parsing back. One character at a time, with no state, so a sequence split across two
 * chunks of a stream is caught in each.
 *
 * Also written out: the characters that reorder or hide text where a terminal does bidirectional
 * layout (VTE, Konsole, mlterm): the explicit direction marks, embeddings, overrides and isolates
 * (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069), and the invisible ones (U+200B-U+200D,
 * U+2060, U+FEFF). A name shown as `txt.exe` that is `exe.txt`, or two names that look alike
 * and are not, is the trick ("Trojan Source"); ordinary right-to-left text needs none of them.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every terminal control character but `\n` and `\t` written out as `\uXXXX`. */
export function visible(text: string): string {
  return text.replace(CONTROL, escaped);
}

/**
 * `visible(text)` for a field printed inside one line of a listing: its line breaks written out
 * as `\n` too, so a publisher's description cannot end its own entry and print another (a forged
 * `filesystem … [shipped]` below its real line in `registry list`).
 */
export function visibleLine(text: string): string {
  return visible(text).replace(/\n/g, '\\n');
}
