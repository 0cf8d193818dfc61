// Public shapes of the triage component, shared by the classifier, the OpenAI client and the triager.

/** What triage needs from a freshly created ticket. */
export interface TriageInput {
  title: string;
  body: string;
  /** Category the player (or the form) picked, if any. Only used to steer the reply when the model is unsure. */
  category?: string | null;
  playerName?: string | null;
}

/** What triage produces; maps 1:1 onto the ticket's ai* fields (see toTicketAiFields in triager.ts). */
export interface TriageResult {
  /** One of TRIAGE_CATEGORIES. */
  category: string;
  /** 0..1 */
  confidence: number;
  suggestedReply: string;
  /** "local-bayes-v1", "openai:<model>" or "local-bayes-v1(fallback)". */
  model: string;
}
