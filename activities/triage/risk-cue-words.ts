// Cue words of the risk model, one short list per risk label, as cue-words.ts has them for the
// triage categories and for the same reason: natural's Bayes model only scores words that are
// present, so `cue_<label>` / `nocue_<label>` tokens let it learn "no legal words at all". The
// lists decide nothing themselves; the model learns their weight (docs/triage.md, "Risk signals").
import { contentStems, normaliseText } from './text-features';
import type { RiskSignal } from './risk-dataset';

export const RISK_CUE_WORDS: Record<RiskSignal, readonly string[]> = {
  fraud: [
    'fraud', 'fraudulent', 'fraudulently', 'stolen', 'stole', 'theft', 'thief', 'scam', 'scammer', 'scammed', 'phishing',
    'fake', 'forged', 'impersonating', 'impersonated', 'cloned', 'unauthorised', 'unauthorized', 'launder', 'laundering', 'identity',
    'consent', 'authorised', 'authorized', 'victim', 'thieves',
  ],
  account_compromise: [
    'hacked', 'hacker', 'hijacked', 'compromised', 'intruder', 'attacker', 'unknown', 'unrecognised', 'unrecognized', 'recognise',
    'recognize', 'sessions', 'session', 'devices', 'breach', 'leaked', 'keylogger', 'took', 'takeover', 'locked',
  ],
  abuse: [
    'idiot', 'idiots', 'moron', 'morons', 'die', 'dead', 'kill', 'hurt', 'hell', 'scum', 'trash', 'filth', 'pathetic', 'worthless',
    'slur', 'bomb', 'shoot', 'knife', 'regret', 'suffer', 'stupid', 'loser', 'losers', 'vermin',
    'attack', 'hunt', 'pigs', 'subhuman', 'curse', 'disgusting', 'retarded', 'clowns', 'filthy', 'hate', 'watch', 'threaten',
    'violence', 'punch', 'smash',
  ],
  legal_threat: [
    'lawyer', 'attorney', 'solicitor', 'counsel', 'sue', 'suing', 'lawsuit', 'litigation', 'court', 'legal', 'chargeback',
    'dispute', 'disputing', 'regulator', 'ombudsman', 'claim', 'proceedings', 'arbitration', 'tribunal', 'subpoena',
    'demand', 'suit', 'authority', 'rights', 'reverse', 'law', 'damages', 'notice', 'complaint',
  ],
};

const CUE_STEMS = (Object.keys(RISK_CUE_WORDS) as RiskSignal[]).map((label) => ({
  label,
  stems: new Set(contentStems(RISK_CUE_WORDS[label])),
}));

/** `riskcue_<label>` when any of the label's words occurs, `noriskcue_<label>` when none does. */
export function riskCueFeatures(text: string): string[] {
  const stems = new Set(contentStems(normaliseText(text)));
  return CUE_STEMS.map(({ label, stems: cue }) => ([...cue].some((s) => stems.has(s)) ? `riskcue_${label}` : `noriskcue_${label}`));
}
