// Suggested first reply for a ticket: an agent reviews it before sending, so it must be correct
// and specific rather than clever. Fully deterministic (same ticket + suggestion -> same text).
import { isTriageCategory, type TriageCategory } from './categories';
import type { TriageInput } from '../../domain/tickets/types';

/** Below this confidence the player's own category choice is trusted over the model's. */
export const LOW_CONFIDENCE = 0.4;

/**
 * The category the reply is written for: the suggestion, unless the model is unsure (< 0.4) and
 * the caller gave a valid, different category; then the caller's.
 */
export function replyCategory(
  suggested: TriageCategory,
  confidence: number,
  callerCategory?: string | null,
): TriageCategory {
  const caller = callerCategory?.trim().toLowerCase();
  if (confidence < LOW_CONFIDENCE && isTriageCategory(caller)) return caller;
  return suggested;
}

interface Platform {
  name: string;
  kind: 'pc' | 'console' | 'mobile';
  /** Who processes purchases made on this platform. */
  store: string;
  pattern: RegExp;
}

// First match wins. Consoles and phones come before Steam/PC because a ticket that names one
// is almost always about it ("PS5 ... my PC is off"), while PC words also turn up incidentally.
const PLATFORMS: Platform[] = [
  { name: 'PlayStation', kind: 'console', store: 'PlayStation Store', pattern: /\b(ps[45]|playstation|psn)\b/i },
  { name: 'Xbox', kind: 'console', store: 'Microsoft Store', pattern: /\bxbox\b/i },
  // Case-sensitive on purpose: a lower-case "switch" is usually the verb ("switch accounts").
  { name: 'Nintendo Switch', kind: 'console', store: 'Nintendo eShop', pattern: /\bSwitch\b|\b[Nn]intendo\b|\be[Ss]hop\b/ },
  { name: 'iOS', kind: 'mobile', store: 'Apple (App Store)', pattern: /\b(ios|iphone|ipad|app store|apple pay|ipados)\b/i },
  { name: 'Android', kind: 'mobile', store: 'Google Play', pattern: /\b(android|google play|pixel|samsung|galaxy|xiaomi|huawei|oneplus)\b/i },
  { name: 'Steam', kind: 'pc', store: 'Steam', pattern: /\b(steam|steam deck)\b/i },
  { name: 'PC', kind: 'pc', store: 'our store', pattern: /\b(pc|windows|launcher|nvidia|rtx|gtx|radeon|directx|dx1[12])\b/i },
];

export function detectPlatform(text: string): Platform | undefined {
  return PLATFORMS.find((platform) => platform.pattern.test(text));
}

// Words suggesting someone may be at real risk (threats, doxxing, minors), not in-game "kills".
const SAFETY_CONCERN =
  /\b(threat\w*|kill (?:yourself|myself|you)|kys|doxx\w*|where i live|home address|real name|predator|scared|minor|child|daughter|son|kid|photos?)\b/i;

/** Collapses whitespace and shortens user-supplied text so it can be quoted safely in a reply. */
function quotable(text: string | null | undefined, maxLength: number): string {
  const oneLine = (text ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return oneLine.length <= maxLength ? oneLine : `${oneLine.slice(0, maxLength - 1).trimEnd()}…`;
}

/** One category's reply content: what we ask the player to send, and advice worth knowing now. */
interface ReplyParts {
  opening: string;
  asks: string[];
  notes: string[];
  closing: string;
}

function billingReply(text: string, platform: Platform | undefined): ReplyParts {
  const notes = [
    'Please do not buy it again while we check: a pending purchase usually arrives after restarting the game' +
      (platform?.kind === 'mobile' ? ' or using "Restore purchases" in the game settings.' : '.'),
  ];
  if (/\b(refund|chargeback|money back)/i.test(text) && platform && platform.name !== 'PC') {
    notes.push(`Purchases made on ${platform.name} are refunded by ${platform.store}; we will tell you whether to request it there or whether we can correct it on our side.`);
  }
  return {
    opening: 'Sorry for the trouble with your purchase; our billing team will check the transaction on our side.',
    asks: [
      `The order or transaction ID from your ${platform ? `${platform.store} ` : ''}receipt, plus the date and amount of the charge.`,
      'What you expected to receive (pack, currency amount or item name).',
    ],
    notes,
    closing: 'Once we have matched the payment we will sort out what is missing or wrongly charged and confirm the outcome here.',
  };
}

function accountReply(text: string, platform: Platform | undefined): ReplyParts {
  const asks = [
    `The email or ${platform && platform.name !== 'PC' ? `${platform.name} ID` : 'platform ID'} on the account, and roughly when it was created.`,
    'A purchase receipt from the account, if you have one; it is the quickest proof of ownership.',
  ];
  const notes = ['Never share your password or 2FA codes with anyone, including us: support will never ask for them.'];
  if (/\b(ban|banned|suspend\w*|appeal|restrict\w*)\b/i.test(text)) {
    asks.push('The ban ID or the date of the ban/suspension notice.');
    notes.push('Every appeal is reviewed personally by an agent.');
  }
  if (/\b(delet\w*|gdpr|erase|my data|personal data)\b/i.test(text)) {
    notes.push('Data requests are completed within 30 days of confirming the account is yours.');
  }
  return {
    opening: 'Our account team will help you with this.',
    asks,
    notes,
    closing: 'As soon as ownership is confirmed we will take it from there and keep you updated in this ticket.',
  };
}

function technicalReply(platform: Platform | undefined): ReplyParts {
  const device: Record<Platform['kind'], string> = {
    pc: 'Your PC specs (CPU, GPU and driver version, Windows version); a DxDiag report and the crash log help most.',
    console: `Your ${platform?.name ?? 'console'} model, whether you are on wired or Wi-Fi, and the game version shown on the title screen.`,
    mobile: `Your ${platform?.name === 'iOS' ? 'iPhone/iPad' : 'phone'} model and ${platform?.name ?? 'OS'} version, and whether it happens on Wi-Fi as well as mobile data.`,
  };
  return {
    opening: 'Sorry the game is not running as it should.',
    asks: [
      platform ? device[platform.kind] : 'Your platform and device, with the OS or system software version.',
      'The exact error code or message, and when it happens (at launch, while loading, mid-match...).',
    ],
    notes: [
      platform?.kind === 'pc'
        ? 'If you have not yet, verifying/repairing the game files and updating the graphics driver fixes many of these; let us know if anything changes.'
        : 'If you have not yet, fully closing the game and installing any pending update fixes many of these; let us know if anything changes.',
    ],
    closing: 'With these details our technical team can match your case against known issues or escalate it.',
  };
}

function replyParts(category: TriageCategory, text: string, platform: Platform | undefined): ReplyParts {
  switch (category) {
    case 'billing':
      return billingReply(text, platform);
    case 'account':
      return accountReply(text, platform);
    case 'technical':
      return technicalReply(platform);
    case 'gameplay':
      return {
        opening: 'Sorry you ran into this in game; our QA team will look into it.',
        asks: [
          'Where it happened (mode, map, quest or item name) and roughly when.',
          'Whether it happens every time, and what you did just before.',
          'A screenshot or short clip, if you have one.',
        ],
        notes: [],
        closing: 'These details let QA reproduce the problem. If items or progress were lost, we will check your account history and restore what we can.',
      };
    case 'abuse':
      return {
        opening: 'Reports like yours help keep the game safe for everyone.',
        asks: [
          "The player's exact name, and when and where it happened (match, server or channel).",
          'Screenshots, clips or match/replay IDs, if you have them.',
        ],
        notes: [
          'You can block or mute the player in game right away; it takes effect immediately.',
          ...(SAFETY_CONCERN.test(text) ? ['If you or anyone else may be in danger, please also contact local emergency services.'] : []),
        ],
        closing: 'Every report is reviewed by our safety team. For privacy reasons we cannot share what action is taken against another account.',
      };
    case 'feedback':
      return {
        opening: 'We appreciate you taking the time to share this.',
        asks: [],
        notes: [],
        closing: 'We have passed it on to the game team. We cannot promise changes or dates, but player feedback is read and tallied, and many recent changes started as requests like yours.',
      };
  }
}

/** Builds the suggested reply for a ticket and the model's suggestion (see replyCategory for which category wins). */
export function buildSuggestedReply(
  input: TriageInput,
  suggestion: { category: TriageCategory; confidence: number },
): string {
  const category = replyCategory(suggestion.category, suggestion.confidence, input.category);
  const text = `${input.title ?? ''}\n${input.body ?? ''}`;
  const name = quotable(input.playerName, 40);
  const title = quotable(input.title, 80);
  const { opening, asks, notes, closing } = replyParts(category, text, detectPlatform(text));

  const lines = [
    name ? `Hi ${name},` : 'Hi there,',
    '',
    `${title ? `Thanks for contacting us about "${title}".` : 'Thanks for contacting us.'} ${opening}`,
  ];
  if (asks.length > 0) lines.push('', 'To help us sort this out quickly, please reply with:', ...asks.map((ask) => `- ${ask}`));
  if (notes.length > 0) lines.push('', ...notes);
  lines.push('', closing);
  if (suggestion.confidence < LOW_CONFIDENCE) {
    lines.push('If we have misunderstood your request, just reply with a few more details.');
  }
  lines.push('', 'Best regards,', 'Player Support');
  return lines.join('\n');
}
