/**
 * Model names the AI features use, by role. The defaults are Groq model ids:
 *   fast:     "llama-3.1-8b-instant"                        first pass of extract (model=fast, model=auto)
 *   accurate: "llama-3.3-70b-versatile"                     model=accurate, and auto's second pass
 *   vision:   "meta-llama/llama-4-scout-17b-16e-instruct"  page images (use_vision)
 * The operator overrides them through config; this module only holds the defaults.
 */

/** ModelNames: the provider's model id for each role. */
export interface ModelNames {
  fast: string;
  accurate: string;
  vision: string;
}

/** DEFAULT_MODELS: the Groq model ids used when the configuration names none. */
export const DEFAULT_MODELS: ModelNames = Object.freeze({
  fast: "llama-3.1-8b-instant",
  accurate: "llama-3.3-70b-versatile",
  vision: "meta-llama/llama-4-scout-17b-16e-instruct",
});

/** Provider is the configured AI provider: the SDK client and the model id of each role. */
export interface Provider {
  client: import("groq-sdk").default;
  models: ModelNames;
}
