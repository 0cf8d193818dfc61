// Turns a ticket's free text into the feature tokens the classifier sees.
// natural's own tokenizeAndStem would also work, but support tickets have regularities worth
// keeping as features (prices, error codes, the title) and noise worth dropping (apostrophes
// typed or not, order numbers, URLs). Measured choices are in docs/triage.md.
import { PorterStemmer } from 'natural/lib/natural/stemmers';
import { TRIAGE_CATEGORIES } from './categories';
import { CUE_WORDS } from './cue-words';

// Function words that carry no category signal. Kept short on purpose: the Bayes model copes
// with frequent words itself, and cue words such as "please" are matched before this filter.
const STOPWORDS = new Set(
  (
    'a an the and or but if so of to in on at by for with from as is are was were be been being ' +
    'am do does did doing have has had having i me my we our you your he him his she her it its ' +
    'they them their this that these those there here what which who whom when where how why ' +
    'just also then than too very really can could would should will shall may might must ' +
    'about into over after before again all any both each few more most other some such only ' +
    'own same up down out off once hi hello hey thanks thank please pls plz im ive id dont'
  ).split(' '),
);

// Placeholder words for things whose exact value is noise but whose presence is a signal.
// The "zz" prefix cannot collide with an English word and is left unstemmed.
const MONEY = 'zzmoney';
const ERROR_CODE = 'zzerrorcode';
const LINK = 'zzlink';
const CURRENCY_WORDS = '(?:usd|eur|euros?|dollars?|pounds?|gbp|pln|cad|reais)';
const MONEY_PATTERN = new RegExp(
  `[$€£]\\s?\\d+(?:[.,]\\d{1,2})?|\\b\\d+[.,]\\d{2}\\s?${CURRENCY_WORDS}?\\b|\\b\\d+\\s?${CURRENCY_WORDS}\\b`,
  'g',
);
// 0x80070005, CE-108255-1, LS-0013, "error 1603", "error code 503"
const ERROR_CODE_PATTERN = /\b0x[0-9a-f]{4,}\b|\b[a-z]{1,3}-\d{3,}(?:-\d+)?\b|\berror\s+(?:code\s+)?\d{3,}\b/g;
const LINK_PATTERN = /\bhttps?:\/\/\S+|\bwww\.\S+|\b[a-z0-9-]+\.(?:com|net|org|shop|co|io)\b/g;

// No word worth stemming is longer; the Porter stemmer is quadratic in word length (a
// 100 k-character "word" in a ticket body took about a minute and blocked the worker).
const MAX_STEMMED_LENGTH = 40;

function stem(word: string): string {
  return word.startsWith('zz') || word.length > MAX_STEMMED_LENGTH ? word : PorterStemmer.stem(word);
}

const STEMMED_CUES = TRIAGE_CATEGORIES.map((category) => ({
  category,
  stems: new Set(CUE_WORDS[category].map(stem)),
}));

/** Lower-cased words with placeholders for prices, error codes and links; "can't" becomes "cant". */
export function normaliseText(text: string): string[] {
  const normalised = text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(LINK_PATTERN, ` ${LINK} `)
    .replace(MONEY_PATTERN, ` ${MONEY} `)
    .replace(ERROR_CODE_PATTERN, ` ${ERROR_CODE} `)
    // Players write "can't" and "cant" interchangeably; fold both to one word.
    .replace(/(\w)'(\w)/g, '$1$2');
  return normalised.match(/[a-z][a-z0-9]*/g) ?? [];
}

/** Stemmed content words of a text, in order, stopwords and one-letter words removed. */
export function contentStems(words: readonly string[]): string[] {
  return words.filter((word) => word.length > 1 && !STOPWORDS.has(word)).map(stem);
}

/** `cue_<category>` / `nocue_<category>` for every category (see cue-words.ts for why). */
export function cueFeatures(words: readonly string[]): string[] {
  const stems = words.map(stem);
  return STEMMED_CUES.map(({ category, stems: cueStems }) =>
    stems.some((s) => cueStems.has(s)) ? `cue_${category}` : `nocue_${category}`,
  );
}

/**
 * Feature tokens for a ticket text as produced by ticketText(): stemmed content words, the
 * title's words again with a `t_` prefix (a title like "Refund request" says more than any
 * sentence of the body), and the cue tokens. De-duplicated: natural's Bayes model only looks
 * at presence, so repeats would not add weight anyway.
 */
export function ticketFeatures(text: string): string[] {
  const newline = text.indexOf('\n');
  const title = newline === -1 ? text : text.slice(0, newline);
  const words = normaliseText(text);
  return [
    ...new Set([
      ...contentStems(words),
      ...contentStems(normaliseText(title)).map((s) => `t_${s}`),
      ...cueFeatures(words),
    ]),
  ];
}

/**
 * The text a ticket is classified on: the title on the first line, then the body. The newline
 * is kept even when the title is empty so the body is never mistaken for a title.
 */
export function ticketText(title: string | null | undefined, body: string | null | undefined): string {
  const oneLineTitle = (title ?? '').replace(/\s+/g, ' ').trim();
  return `${oneLineTitle}\n${(body ?? '').trim()}`;
}
