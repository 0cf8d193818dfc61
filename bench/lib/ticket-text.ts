// Ticket titles and bodies for the bench data (bench/seed.ts): composed from game-support
// word pools with a seeded PRNG, with the search benchmark's query words at known rates.
import type { Rng } from './rng';

// ---- text ------------------------------------------------------------------------------------

/**
 * Query words the search benchmark uses and how often the generator puts them in:
 * RARE in ~0.1 % of tickets, COMMON in ~85 %, PHRASE (adjacent, in this order) in ~3 %.
 * The benchmark reports the real match counts from the table, not these targets.
 */
export const SEARCH_TERMS = {
  rare: 'chronoshard',
  common: 'game',
  phrase: '"connection lost"',
} as const;
const P_RARE = 0.001;
const P_COMMON = 0.85;
const P_PHRASE = 0.03;

const GAMES = ['Starfall Arena', 'Dungeon Tactics', 'Kart Legends', 'Skyforge Online', 'Pixel Farm', 'Mech Brawlers'];
const PLATFORMS = ['PC', 'Steam Deck', 'PS5', 'Xbox Series X', 'Switch', 'Android', 'iOS', 'Mac'];
const MODES = ['ranked', 'co-op', 'campaign', 'battle royale', 'arena', 'tutorial', 'guild raid', 'daily quest'];
const ITEMS = ['legendary sword', 'battle pass', 'gem pack', 'starter bundle', 'skin', 'mount', 'season pass', 'loot crate', 'emote', 'pet companion'];
const SYMPTOMS = [
  'crashes on startup', 'freezes during loading', 'black screen after the intro', 'stutters badly', 'drops to 10 fps',
  'disconnects every few minutes', 'shows error code 0x80040154', 'stuck on the loading screen', 'audio cuts out',
  'controller not detected', 'textures are missing', 'progress was reset', 'inventory is empty', 'save file corrupted',
];
const ACCOUNT = [
  'cannot log in', 'password reset email never arrives', 'two-factor code rejected', 'account was hacked',
  'email change request', 'linked the wrong console account', 'want to delete my account', 'username change',
];
const BILLING = [
  'charged twice for the', 'purchase failed but money was taken for the', 'refund request for the',
  'did not receive the', 'promo code does not work for the', 'subscription renewed without warning, wanted the',
];
const ABUSE = ['player is cheating with an aimbot', 'toxic chat in', 'griefing teammates in', 'exploit that duplicates gold in', 'bot farming in'];
const FEEDBACK = ['suggestion: add a replay system to', 'the new balance patch ruined', 'please bring back the old map in', 'love the new season of'];
const OPENERS = ['Hi support,', 'Hello,', 'Hey team,', 'Good morning,', 'Dear support team,', 'Hi there,', ''];
const DETAILS = [
  'It started after the latest patch.', 'I already reinstalled twice and verified the files.', 'My friends have the same issue.',
  'This happens every single time I try.', 'I tried restarting the router and the console.', 'Support ticket from last week was never answered.',
  'I have attached a screenshot of the error.', 'The launcher says everything is up to date.', 'My order number is in my account history.',
  'I play on a wired ethernet connection.', 'Graphics drivers are the newest version.', 'It worked fine yesterday evening.',
  'Nothing in the FAQ helped.', 'I lost about three hours of progress.', 'The server region is set to Europe West.',
];
const CLOSERS_COMMON = [
  'Please help, I really love this game.', 'Can you fix this? The game is unplayable for me.', 'I have spent a lot of money on this game.',
  'Any idea when the game will be fixed?', 'Thanks, otherwise a great game.',
];
const CLOSERS_OTHER = ['Thanks in advance.', 'Please respond soon.', 'Regards.', 'Thank you!', 'Cheers.'];

const CATEGORIES = ['technical', 'account', 'billing', 'abuse', 'feedback', 'gameplay'] as const;

export interface GeneratedText {
  title: string;
  body: string;
  category: (typeof CATEGORIES)[number];
}

/** One ticket's title, body and category; titles stay well under 255 characters. */
export function generateText(rng: Rng): GeneratedText {
  const game = rng.pick(GAMES);
  const platform = rng.pick(PLATFORMS);
  const mode = rng.pick(MODES);
  const item = rng.pick(ITEMS);
  const category = rng.weighted<GeneratedText['category']>([
    ['technical', 35], ['account', 20], ['billing', 20], ['abuse', 10], ['feedback', 8], ['gameplay', 7],
  ]);
  let title: string;
  let problem: string;
  switch (category) {
    case 'technical': {
      const s = rng.pick(SYMPTOMS);
      title = `${game} ${s} on ${platform}`;
      problem = `${game} ${s} when I start a ${mode} match on ${platform}.`;
      break;
    }
    case 'account': {
      const s = rng.pick(ACCOUNT);
      title = `${s[0].toUpperCase()}${s.slice(1)} (${platform})`;
      problem = `I ${s.startsWith('want') || s.startsWith('cannot') ? s : `have a problem: ${s}`} for my ${game} account.`;
      break;
    }
    case 'billing': {
      const s = rng.pick(BILLING);
      title = `${s[0].toUpperCase()}${s.slice(1)} ${item}`;
      problem = `I was ${s.startsWith('charged') ? s : `told to write here: ${s}`} ${item} in ${game} on ${platform}.`;
      break;
    }
    case 'abuse': {
      const s = rng.pick(ABUSE);
      title = `Report: ${s} ${mode}`;
      problem = `Another ${s} ${mode} on the ${platform} servers of ${game}.`;
      break;
    }
    case 'feedback': {
      const s = rng.pick(FEEDBACK);
      title = `${s[0].toUpperCase()}${s.slice(1)} ${mode}`;
      problem = `${s[0].toUpperCase()}${s.slice(1)} ${mode} in ${game}.`;
      break;
    }
    default: {
      title = `Quest bug in ${mode}: ${item} reward missing`;
      problem = `I finished the ${mode} quest in ${game} but the ${item} reward never showed up.`;
    }
  }
  const parts: string[] = [];
  const opener = rng.pick(OPENERS);
  if (opener) parts.push(opener);
  parts.push(problem);
  const n = 1 + rng.int(4);
  for (let i = 0; i < n; i++) parts.push(rng.pick(DETAILS));
  if (rng.chance(P_PHRASE)) parts.push('Every time the connection lost message appears I get kicked to the menu.');
  if (rng.chance(P_RARE)) parts.push(`The ${SEARCH_TERMS.rare} I bought vanished from my stash.`);
  // "game" must be (nearly) absent outside the closer so P_COMMON controls its frequency:
  // the generated problem sentences never contain the word itself (only game names).
  parts.push(rng.chance(P_COMMON) ? rng.pick(CLOSERS_COMMON) : rng.pick(CLOSERS_OTHER));
  return { title: title.slice(0, 250), body: parts.join(' '), category };
}

