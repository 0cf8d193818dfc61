// Optional LLM triage through any OpenAI-compatible /chat/completions endpoint (OpenAI, Azure
// OpenAI proxies, vLLM, Ollama, llama.cpp server...). Everything that can go wrong becomes an
// OpenAITriageError, so the triager has one thing to catch before falling back to the local model.
//
// The request body is deliberately minimal (model + messages): parameters such as temperature,
// max_tokens or response_format are rejected by some models/servers, and a request that is
// always rejected would silently turn this path into "always fall back". The JSON format is asked
// for in the prompt instead and validated strictly here.
import { TRIAGE_CATEGORIES, isTriageCategory, type TriageCategory } from './categories';
import type { TriageInput } from '../../domain/tickets/types';

export interface OpenAIConfig {
  /** Base URL including the API version path, e.g. "https://api.openai.com/v1" or "http://localhost:11434/v1". */
  baseUrl: string;
  /** Sent as "Authorization: Bearer <apiKey>" when set; local servers often need none. */
  apiKey?: string;
  model: string;
  /** Whole-request budget (connect + response body). Default 5000 ms. */
  timeoutMs?: number;
}

export interface OpenAITriageAnswer {
  category: TriageCategory;
  confidence: number;
  suggestedReply: string;
}

export const DEFAULT_OPENAI_TIMEOUT_MS = 5000;
// A reply longer than this is not a usable first answer; treat it as a malformed response.
const MAX_REPLY_LENGTH = 4000;

export class OpenAITriageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OpenAITriageError';
  }
}

const SYSTEM_PROMPT = [
  'You triage player support tickets for an online game publisher.',
  'Pick exactly one category:',
  '- billing: payments, refunds, purchases, subscriptions, premium currency or items paid for but not received',
  '- gameplay: bugs in game mechanics, quests, items, progression, rewards, matchmaking and balance',
  '- account: login, password, 2FA, platform linking, bans/appeals of their own account, name change, data deletion',
  '- technical: crashes, performance, connection, install/patch problems, device compatibility',
  '- abuse: reports about other players: cheating, harassment, toxic chat, scams',
  '- feedback: suggestions, feature requests, praise, opinions',
  'Then write a short, polite first reply for a support agent to review: greet the player by name if a name',
  'is given, refer to the ticket subject, give concrete next steps for that category. Never ask for passwords',
  'or 2FA codes, never promise refunds, bans or compensation.',
  'Answer with ONLY a JSON object, no prose and no code fences:',
  '{"category": "<one of: ' + TRIAGE_CATEGORIES.join(', ') + '>", "confidence": <number 0..1>, "suggestedReply": "<text>"}',
].join('\n');

/** The chat/completions request body for a ticket. The ticket goes in as JSON data, not as instructions. */
export function buildChatRequest(model: string, input: TriageInput): Record<string, unknown> {
  const ticket = {
    title: input.title ?? '',
    body: input.body ?? '',
    playerName: input.playerName ?? null,
    categoryChosenByPlayer: input.category ?? null,
  };
  return {
    model,
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: `Ticket:\n${JSON.stringify(ticket, null, 2)}` },
    ],
  };
}

/** Validates the model's message content. Throws OpenAITriageError unless it is a complete, valid answer. */
export function parseTriageAnswer(content: string): OpenAITriageAnswer {
  // Models sometimes wrap JSON in ```json fences or add a sentence around it: take the outermost object.
  const { category, confidence, suggestedReply } = answerObject(content);

  const normalisedCategory = typeof category === 'string' ? category.trim().toLowerCase() : category;
  if (!isTriageCategory(normalisedCategory)) {
    throw new OpenAITriageError(`invalid category ${JSON.stringify(category)}`);
  }
  if (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence < 0 || confidence > 1) {
    throw new OpenAITriageError(`invalid confidence ${JSON.stringify(confidence)}`);
  }
  if (typeof suggestedReply !== 'string' || suggestedReply.trim() === '' || suggestedReply.length > MAX_REPLY_LENGTH) {
    throw new OpenAITriageError('missing, empty or oversized suggestedReply');
  }
  return { category: normalisedCategory, confidence, suggestedReply: suggestedReply.trim() };
}

/**
 * POSTs a chat/completions request body to the configured endpoint and answers the first
 * choice's message content. Rejects with OpenAITriageError on any failure (network, timeout,
 * non-2xx, a body that is not JSON or has no content). Shared by triage and the risk model.
 */
export async function chatCompletionContent(
  config: OpenAIConfig,
  body: Record<string, unknown>,
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  const timeoutMs = config.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS;
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;

  // One abort signal covers the request AND reading the body: a server that sends headers
  // and then stalls must not hold the ticket past the budget either.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let status: number;
  let responseText: string;
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    status = response.status;
    responseText = await response.text();
  } catch (error) {
    if (controller.signal.aborted) throw new OpenAITriageError(`timed out after ${timeoutMs} ms`, { cause: error });
    throw new OpenAITriageError(`request failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }

  if (status < 200 || status >= 300) {
    throw new OpenAITriageError(`HTTP ${status}: ${responseText.slice(0, 200)}`);
  }
  let completion: { choices?: Array<{ message?: { content?: unknown } }> };
  try {
    completion = JSON.parse(responseText);
  } catch (error) {
    throw new OpenAITriageError('response body is not JSON', { cause: error });
  }
  const content = completion?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new OpenAITriageError('response has no choices[0].message.content');
  return content;
}

/** The outermost JSON object of a model's answer (fences or a sentence around it tolerated). */
export function answerObject(content: string): Record<string, unknown> {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  if (start === -1 || end <= start) throw new OpenAITriageError('answer contains no JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.slice(start, end + 1));
  } catch (error) {
    throw new OpenAITriageError('answer is not valid JSON', { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null) throw new OpenAITriageError('answer is not a JSON object');
  return parsed as Record<string, unknown>;
}

/** Asks the configured endpoint to triage a ticket. Rejects with OpenAITriageError on any failure. */
export async function triageWithOpenAI(
  config: OpenAIConfig,
  input: TriageInput,
  fetchImpl: typeof fetch = fetch,
): Promise<OpenAITriageAnswer> {
  return parseTriageAnswer(await chatCompletionContent(config, buildChatRequest(config.model, input), fetchImpl));
}
