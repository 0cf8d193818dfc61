// The risk model's optional LLM path: the same OpenAI-compatible /chat/completions endpoint as
// triage (openai.ts; TRIAGE_OPENAI_*), asked for one of the risk labels and a confidence. The
// text goes in as JSON data, not as instructions; the answer is validated strictly, and
// anything else is an OpenAITriageError, after which the local model answers (risk.ts).
import { answerObject, chatCompletionContent, OpenAITriageError, type OpenAIConfig } from './openai';
import { RISK_LABELS, type RiskLabel } from './risk-dataset';

const SYSTEM_PROMPT = [
  'You screen customer support texts (a new ticket or a reply) for risks to the business running the support desk.',
  'Pick exactly one label:',
  '- fraud: payment or identity fraud: a card, bank or payment account used by someone else, stolen or resold keys, refund abuse, fake receipts, phishing or someone posing as staff',
  '- abuse: the writer is abusive: threats of violence or harm, hate speech, sustained insults or harassment of staff, threats to expose private details (a report about another user is not abuse)',
  "- account_compromise: the writer's own account is in someone else's hands: hacked, logins they do not recognise, password, email or 2FA changed without them",
  '- legal_threat: legal action or a payment dispute threatened or announced: lawyer, lawsuit, court, regulator, chargeback or bank dispute',
  '- none: ordinary support text',
  'Answer with ONLY a JSON object, no prose and no code fences:',
  '{"label": "<one of: ' + RISK_LABELS.join(', ') + '>", "confidence": <number 0..1>}',
].join('\n');

export function buildRiskChatRequest(model: string, text: string): Record<string, unknown> {
  return {
    model,
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: `Text:\n${JSON.stringify({ text })}` },
    ],
  };
}

/** Validates the model's content: a known label (case and spaces ignored) and a confidence in [0, 1]. */
export function parseRiskAnswer(content: string): { label: RiskLabel; confidence: number } {
  const { label, confidence } = answerObject(content);
  const normalised = typeof label === 'string' ? label.trim().toLowerCase() : label;
  if (!(RISK_LABELS as readonly unknown[]).includes(normalised)) throw new OpenAITriageError(`invalid label ${JSON.stringify(label)}`);
  if (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence < 0 || confidence > 1) {
    throw new OpenAITriageError(`invalid confidence ${JSON.stringify(confidence)}`);
  }
  return { label: normalised as RiskLabel, confidence };
}

/** Asks the endpoint; rejects with OpenAITriageError on any failure. */
export async function assessRiskWithOpenAI(config: OpenAIConfig, text: string, fetchImpl: typeof fetch = fetch): Promise<{ label: RiskLabel; confidence: number }> {
  return parseRiskAnswer(await chatCompletionContent(config, buildRiskChatRequest(config.model, text), fetchImpl));
}
