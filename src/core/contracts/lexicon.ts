/**
 * Word lists behind the heuristic keywords (docs/formats/contract.md, "What the heuristics can
 * and cannot tell"). English only. An entry ending in `*` matches any word starting with it;
 * other entries match whole words. Words are compared lower-cased, NFKC-normalised, with ’ as '.
 * Changing a list changes what contracts accept: it is a behaviour change, so it is versioned
 * with skillctl and noted in the changelog.
 */

/** Function words: never key terms, never "specific". */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren't as at be because been before being below " +
    "between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each " +
    'either even ever every few for from further had hadn\'t has hasn\'t have haven\'t having he her here hers herself ' +
    "him himself his how i i'm if in into is isn't it it's its itself just let's me more most my myself no nor not " +
    'of off on once only or other ought our ours ourselves out over own same she should shouldn\'t so some such than ' +
    "that that's the their theirs them themselves then there there's these they they're this those through to too " +
    "under until up upon us very was wasn't we we're were weren't what what's when where which while who who's whom " +
    "whose why will with won't would wouldn't you you're your yours yourself yourselves here's how's via"
  ).split(' '),
);

/** Words that make a statement sound general whatever it says; they do not count as specific. */
export const GENERIC_WORDS: ReadonlySet<string> = new Set(
  (
    'actually anyone anything aspect aspects bad basically best better big certain content different do everybody ' +
    'everyone everything factor factors feel feels general generally get gets good great help helps important ' +
    'interesting issue issues kind know knows life like likes lot lots make makes many money much need needs new ' +
    'nice nothing people person problem problems really situation situations small somebody someone something ' +
    'sort stuff success successful thing things think thinks time times topic topics type types use uses various ' +
    'want wants way ways world'
  ).split(' '),
);

/** Words about the medium rather than the subject: never key terms of a click thesis. */
export const META_WORDS: ReadonlySet<string> = new Set(
  'channel clip content episode show showing shows subscribe video videos watch watching'.split(' '),
);

/** Emotionally charged words (fear, anger, shame, surprise, desire, relief). */
export const EMOTION_TERMS: readonly string[] = (
  'afraid alarm* amaz* anger angry anxi* ashamed astonish* awful betray* bizarre brutal* catastroph* chaos cheat* ' +
  'crisis crush* danger* dead deadly death deceiv* decept* delight* desperat* destroy* devastat* disaster* disgust* ' +
  'doom* dread* embarrass* excit* exploit* fail* fake fascinat* fear* fool* fraud* frustrat* furious genius guilt* ' +
  'hate* haunt* heartbr* hidden horrif* horribl* humiliat* hurt* incredibl* insane jealous* joy joyful kill* lie lied lies ' +
  'lying lonel* lose loses losing lost love* mistake* nightmare* obsess* outrag* pain painful panic* poison* proud rage ' +
  'regret* relief relieved ruin* sabotag* scam* scare scared scares scary secret* shame* shock* stole stolen steal* stress* ' +
  'struggl* stunned stunning suffer* surpris* terribl* terrif* threat* thrill* toxic trap* trick* ugly unbelievabl* unfair ' +
  'upset* useless victim* violent* warn* wast* weird* worr* worst wrong'
).split(' ');

/** Time markers and consequence words: what makes a claim time- or consequence-bound. */
export const STAKES_TERMS: readonly string[] = (
  // time
  'after already before daily deadline decade* early forever hour* late later minute* month* morning night now ' +
  'overnight soon still today tomorrow tonight until week* year* yesterday ' +
  // consequence
  'bankrupt* break breaks breaking broke broken cost costs costly costing consequen* damag* debt* destroy* doom* ' +
  'end ends ended ending fail* fine fined fines fired hurt* kill* lose loses losing lost pay pays paying penalt* ' +
  'price prices risk* ruin* sue sued sues suing wast* wreck*'
).split(' ');

/** A number with a unit of time ("30 days", "24h", "10-minute") or a year (1900-2099) also binds a claim in time. */
export const TIME_QUANTITY = /(?:^|[^\p{L}\p{N}])(?:\d+(?:\s*-)?\s*(?:s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|yrs?)|(?:19|20)\d\d)(?![\p{L}\p{N}])/iu;

/** Openings that announce a cold open: a teaser or scene played before the subject is introduced. */
export const COLD_OPEN_MARKERS =
  /^[\s"'“‘]*(?:[[(]\s*(?:cold open|teaser|scene|sfx|sound|music|b-roll|broll|montage|flashback|fade in|int\.|ext\.)|(?:cold open|teaser|pre-title|fade in|int\.|ext\.)(?![\p{L}\p{N}]))/iu;

/** Abbreviations whose period never ends a sentence (titles and Latin before what they qualify). */
export const ABBREVIATIONS_INNER: ReadonlySet<string> = new Set(
  'approx apr aug cf dec dept dr e.g est feb fig i.e jan jr jul jun mar messrs mr mrs ms mt nov oct prof sep sept sr st vol vs'.split(' '),
);

/** Abbreviations that may end a sentence: their period ends one only before a capital letter. */
export const ABBREVIATIONS_FINAL: ReadonlySet<string> = new Set('al co corp etc inc ltd'.split(' '));

/** Does `word` (already lower-cased) match an entry of `terms` (`*` = prefix)? */
export function matchesTerm(word: string, terms: readonly string[]): boolean {
  for (const t of terms) {
    if (t.endsWith('*') ? word.startsWith(t.slice(0, -1)) : word === t) return true;
  }
  return false;
}
