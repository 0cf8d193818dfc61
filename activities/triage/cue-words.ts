// Small hand-picked word lists, one per category, taken from the category definitions.
// Why they exist: natural's Bayes model only scores words that are PRESENT in a ticket, so on its
// own it cannot learn "no payment words at all, so probably not billing". Each list becomes two
// synthetic tokens, `cue_<category>` when any of its words occurs and `nocue_<category>` when
// none does, and the classifier learns how much each one matters; the lists do not decide anything
// by themselves. Measured effect: +1.3 points of 5-fold accuracy (see docs/triage.md).
import type { TriageCategory } from './categories';

export const CUE_WORDS: Record<TriageCategory, readonly string[]> = {
  billing: [
    'zzmoney', 'charge', 'charged', 'refund', 'paid', 'pay', 'payment', 'purchase', 'bought', 'buy',
    'money', 'card', 'paypal', 'receipt', 'invoice', 'price', 'wallet', 'subscription', 'billed',
    'bank', 'transaction', 'order', 'gems', 'coins', 'credits', 'currency', 'gift', 'redeem',
    'chargeback', 'membership',
  ],
  account: [
    'login', 'log', 'logged', 'password', '2fa', 'authenticator', 'verification', 'verify', 'email',
    'username', 'rename', 'banned', 'ban', 'suspended', 'suspension', 'appeal', 'account', 'linked',
    'link', 'unlink', 'recover', 'recovery', 'delete', 'deletion', 'gdpr', 'hacked', 'locked', 'sign',
  ],
  technical: [
    'crash', 'crashes', 'freeze', 'frozen', 'fps', 'lag', 'ping', 'disconnect', 'disconnected',
    'error', 'zzerrorcode', 'install', 'download', 'update', 'patch', 'driver', 'gpu', 'cpu', 'launch',
    'launcher', 'loading', 'stutter', 'server', 'connection', 'connect', 'performance', 'screen',
    'memory', 'overheating', 'resolution',
  ],
  abuse: [
    'cheat', 'cheater', 'cheating', 'hacker', 'hack', 'aimbot', 'wallhack', 'harass', 'harassment',
    'toxic', 'slur', 'racist', 'insult', 'abuse', 'scam', 'scammer', 'phishing', 'threat', 'spam',
    'bot', 'grief', 'griefing', 'exploit', 'report', 'stalking', 'smurf', 'boosting',
  ],
  feedback: [
    'suggest', 'suggestion', 'idea', 'add', 'request', 'feature', 'love', 'great', 'thanks', 'thank',
    'wish', 'would', 'please', 'consider', 'option', 'setting', 'awesome', 'amazing', 'feedback',
    'fun', 'appreciate', 'opinion', 'bring',
  ],
  gameplay: [
    'quest', 'boss', 'item', 'reward', 'xp', 'level', 'rank', 'ranked', 'matchmaking', 'balance',
    'nerf', 'buff', 'bug', 'bugged', 'skill', 'weapon', 'loot', 'progress', 'progression',
    'achievement', 'dungeon', 'mission', 'challenge', 'match', 'stats', 'upgrade', 'drop', 'raid',
    'npc', 'damage', 'ability',
  ],
};
