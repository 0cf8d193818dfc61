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
  /** Use an OpenAI-compatible endpoint first (the worker passes lib/config.ts triageOpenAi, from TRIAGE_OPENAI_*). */
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
