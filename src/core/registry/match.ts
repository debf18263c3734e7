/**
 * Intent matching: which capabilities a user's message is about, ranked, with the triggers that
 * matched (seed 004: "weigh" matches "weigh-in"). Text and triggers are split into words
 * (Unicode letters and digits), common function words are dropped, and words are compared by
 * their Porter stems, so "weighed" meets "weigh-in" and "workouts" meets "workout". A trigger
 * written as one word also matches the same letters split over adjacent words of the message
 * ("bodyweight" and "body weight"), and the other way round.
 *
 * Scoring (docs/commands/registry.md): a trigger all of whose words occur scores the number of
 * its distinct words; a trigger of several words of which only some occur scores half a point per
 * word found. A capability scores each word of the message once: 1 when a fully matched trigger
 * found it, else ½ when a partly matched one did. Ties are broken by the number of words found by
 * full matches (more first), then by capability_id in byte order, so equal input always gives the
 * same order. Function words alone match nothing, whatever the trigger.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { CapabilitySummary } from './model.js';
import { stem } from './stem.js';

/**
 * The distinct intent triggers matching reads at most, across the registries in use. Matching
 * splits and stems every distinct trigger at each call, about 15 µs each on a loaded core: an
 * index within its own bounds (64 MiB) holds a million, which held `skillctl mcp`'s one thread,
 * every session's, 14 to 45 s a call. 100,000 is 2,000 capabilities of 50 triggers none shares,
 * and about a second and a half to match at worst.
 */
export const MATCH_TRIGGERS_MAX = 100_000;

/** REGISTRY_TRIGGERS_TOO_MANY when `capabilities` hold more distinct triggers than matching reads. */
export function matchBound(capabilities: readonly CapabilitySummary[]): Diagnostic | undefined {
  const distinct = new Set<string>();
  for (const c of capabilities) {
    for (const t of c.intent_triggers) {
      distinct.add(t);
      if (distinct.size > MATCH_TRIGGERS_MAX) {
        return diag(
          'REGISTRY_TRIGGERS_TOO_MANY',
          `the registries in use hold more than ${MATCH_TRIGGERS_MAX} distinct intent triggers; matching reads at most that many (list and load still work)`,
        );
      }
    }
  }
  return undefined;
}

const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the i im me my mine we our ours you your yours he she it its they them their this that these those ' +
    'am is are was were be been being do does did doing have has had having will would shall should can could may might must ' +
    'to of in on at by for from with and or but if so as into onto than then just please want need let lets ' +
    'm s t d ll re ve'
  ).split(' '),
);

export interface Word {
  /** The word as it appears (lower-cased). */
  readonly text: string;
  readonly stem: string;
  readonly stop: boolean;
}

/** Splits text into lower-case words of letters and digits, each with its stem. */
export function words(text: string): Word[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '')
    .map((w) => ({ text: w, stem: stem(w), stop: STOPWORDS.has(w) }));
}

export interface TriggerMatch {
  readonly trigger: string;
  /** True when every word of the trigger was found. */
  readonly full: boolean;
  /** The words of the message that matched it. */
  readonly words: readonly string[];
  readonly score: number;
}

export interface CapabilityMatch {
  readonly capability_id: string;
  readonly name: string;
  readonly score: number;
  readonly matched_triggers: readonly TriggerMatch[];
}

interface Message {
  /** stem → the message words with that stem */
  readonly stems: ReadonlyMap<string, readonly string[]>;
  /** Runs of 1-3 adjacent words joined without spaces → those words. */
  readonly joined: ReadonlyMap<string, readonly string[]>;
}

function message(text: string): Message {
  const ws = words(text);
  const stems = new Map<string, string[]>();
  for (const w of ws) {
    if (w.stop) continue;
    const list = stems.get(w.stem) ?? [];
    if (!list.includes(w.text)) list.push(w.text);
    stems.set(w.stem, list);
  }
  const joined = new Map<string, string[]>();
  for (let i = 0; i < ws.length; i++) {
    for (let n = 1; n <= 3 && i + n <= ws.length; n++) {
      const run = ws.slice(i, i + n).map((w) => w.text);
      const key = run.join('');
      if (!joined.has(key)) joined.set(key, run);
      if (!joined.has(stem(key))) joined.set(stem(key), run);
    }
  }
  return { stems, joined };
}

/** A trigger split once per matchIntent call: registries repeat triggers across capabilities. */
interface TriggerWords {
  readonly words: readonly Word[];
  readonly compact: string;
  readonly compactStem: string;
}

function triggerWords(cache: Map<string, TriggerWords>, trigger: string): TriggerWords {
  let t = cache.get(trigger);
  if (t === undefined) {
    const ws = words(trigger);
    const compact = ws.map((w) => w.text).join('');
    t = { words: ws, compact, compactStem: stem(compact) };
    cache.set(trigger, t);
  }
  return t;
}

/** One word per stem: `fetch fetching fetched` is one word said three times, not three words. */
function distinctStems(ws: readonly Word[]): Word[] {
  const byStem = new Map<string, Word>();
  for (const w of ws) if (!byStem.has(w.stem)) byStem.set(w.stem, w);
  return [...byStem.values()];
}

/**
 * A capability's score and its words found in full. Each word of the message counts once,
 * whatever the number of triggers that found it: a capability summing its triggers outranked the
 * one the message was about by listing one word in many spellings (`fetch`, `Fetch`, `fetching`,
 * `ｆｅｔｃｈ`, `fetch x1`, `fetch x2`…), each of which counted again.
 */
function credit(matched: readonly TriggerMatch[]): { score: number; fulls: number } {
  const full = new Set<string>();
  const part = new Set<string>();
  for (const m of matched) for (const w of m.words) if (!STOPWORDS.has(w)) (m.full ? full : part).add(w);
  for (const w of full) part.delete(w);
  return { score: full.size + part.size / 2, fulls: full.size };
}

function matchTrigger(msg: Message, trigger: string, cache: Map<string, TriggerWords>): TriggerMatch | undefined {
  const { words: tw, compact, compactStem } = triggerWords(cache, trigger);
  if (tw.length === 0) return undefined;
  const whole = msg.joined.get(compact) ?? msg.joined.get(compactStem);
  // A run of function words only ("the", "of the") says nothing of what the user wants: a
  // capability whose triggers are such words ("the", "ofthe", "you") matched almost every
  // message and outranked the one it was about.
  if (whole !== undefined && whole.some((w) => !STOPWORDS.has(w))) return { trigger, full: true, words: whole, score: Math.max(1, distinctStems(tw.filter((w) => !w.stop)).length) };
  const content = distinctStems(tw.some((w) => !w.stop) ? tw.filter((w) => !w.stop) : tw);
  const found: string[] = [];
  let hits = 0;
  for (const w of content) {
    const m = msg.stems.get(w.stem);
    if (m !== undefined) {
      hits++;
      for (const x of m) if (!found.includes(x)) found.push(x);
    }
  }
  if (hits === 0) return undefined;
  if (hits === content.length) return { trigger, full: true, words: found, score: content.length };
  return { trigger, full: false, words: found, score: hits / 2 };
}

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Capabilities whose triggers match `text`, best first; those matching nothing are left out. */
export function matchIntent(capabilities: readonly CapabilitySummary[], text: string): CapabilityMatch[] {
  const msg = message(text);
  const cache = new Map<string, TriggerWords>();
  const out: (CapabilityMatch & { fulls: number })[] = [];
  for (const c of capabilities) {
    const matched = c.intent_triggers.map((t) => matchTrigger(msg, t, cache)).filter((m): m is TriggerMatch => m !== undefined);
    if (matched.length === 0) continue;
    matched.sort((a, b) => b.score - a.score || byBytes(a.trigger, b.trigger));
    const { score, fulls } = credit(matched);
    out.push({ capability_id: c.capability_id, name: c.name, score, matched_triggers: matched, fulls });
  }
  out.sort((a, b) => b.score - a.score || b.fulls - a.fulls || byBytes(a.capability_id, b.capability_id));
  return out.map(({ fulls: _f, ...m }) => (void _f, m));
}
