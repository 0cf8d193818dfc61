// Entry point of the triage component: one call per new ticket, never throws because of the
// LLM. With an OpenAI-compatible endpoint configured it asks that first; without one, or when
// the call fails in any way, the local classifier answers (model id marked "(fallback)").
import { defaultClassifier, type TicketClassifier } from './classifier';
import { triageWithOpenAI, type OpenAIConfig } from './openai';
import { buildSuggestedReply } from './replies';
import { ticketText } from './text-features';
import type { TriageInput, TriageResult, Triager } from '../../domain/tickets/types';

export type { OpenAIConfig } from './openai';

export interface TriagerConfig {
  /** Use an OpenAI-compatible endpoint first. Build it with triageConfigFromEnv() or by hand. */
  openai?: OpenAIConfig;
  /** Called with the reason whenever the OpenAI path failed and the local model answered instead. */
  onFallback?: (reason: string, error: unknown) => void;
  /** Defaults to defaultClassifier() (trained on the bundled dataset on first use). */
  classifier?: TicketClassifier;
}

export const FALLBACK_MARK = '(fallback)';

export function createTriager(config: TriagerConfig = {}): Triager {
  const classifier = (): TicketClassifier => config.classifier ?? defaultClassifier();

  const triageLocally = (input: TriageInput, modelSuffix = ''): TriageResult => {
    const local = classifier();
    const { category, confidence } = local.classify(ticketText(input.title, input.body));
    return {
      category,
      confidence,
      suggestedReply: buildSuggestedReply(input, { category, confidence }),
      model: `${local.model}${modelSuffix}`,
    };
  };

  return {
    async triage(input: TriageInput): Promise<TriageResult> {
      if (!config.openai) return triageLocally(input);
      try {
        const answer = await triageWithOpenAI(config.openai, input);
        return { ...answer, model: `openai:${config.openai.model}` };
      } catch (error) {
        config.onFallback?.((error as Error)?.message ?? String(error), error);
        return triageLocally(input, FALLBACK_MARK);
      }
    },
  };
}

/**
 * Reads TRIAGE_OPENAI_BASE_URL, TRIAGE_OPENAI_MODEL, TRIAGE_OPENAI_API_KEY (optional) and
 * TRIAGE_OPENAI_TIMEOUT_MS (optional) from the env object it is given, e.g. process.env.
 * Without both a base URL and a model there is no OpenAI config and triage stays local.
 */
export function triageConfigFromEnv(env: Record<string, string | undefined>): TriagerConfig {
  const baseUrl = env.TRIAGE_OPENAI_BASE_URL?.trim();
  const model = env.TRIAGE_OPENAI_MODEL?.trim();
  if (!baseUrl || !model) return {};
  const timeoutMs = Number(env.TRIAGE_OPENAI_TIMEOUT_MS);
  return {
    openai: {
      baseUrl,
      model,
      apiKey: env.TRIAGE_OPENAI_API_KEY?.trim() || undefined,
      timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : undefined,
    },
  };
}

/** The ticket's read-only AI fields, as the post-create activity stores them. */
export function toTicketAiFields(result: TriageResult): {
  aiTriaged: true;
  aiSuggestedCategory: string;
  aiConfidence: number;
  aiSuggestedReply: string;
} {
  return {
    aiTriaged: true,
    aiSuggestedCategory: result.category,
    aiConfidence: result.confidence,
    aiSuggestedReply: result.suggestedReply,
  };
}
