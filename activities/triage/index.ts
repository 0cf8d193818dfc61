// Public surface of the triage component. Callers normally need only createTriager,
// triageConfigFromEnv and toTicketAiFields.
export { TRIAGE_CATEGORIES, isTriageCategory, type TriageCategory } from './categories';
export type { TriageInput, TriageResult } from './types';
export {
  createTriager,
  triageConfigFromEnv,
  toTicketAiFields,
  FALLBACK_MARK,
  type Triager,
  type TriagerConfig,
} from './triager';
export {
  trainClassifier,
  defaultClassifier,
  BAYES_MODEL_ID,
  type TicketClassifier,
  type TicketClassification,
  type ClassifierAlgorithm,
} from './classifier';
export { buildSuggestedReply, replyCategory, LOW_CONFIDENCE } from './replies';
export { triageWithOpenAI, OpenAITriageError, DEFAULT_OPENAI_TIMEOUT_MS, type OpenAIConfig } from './openai';
export { TRIAGE_DATASET, splitDataset, type LabelledTicket } from './dataset';
export { ticketText } from './text-features';
