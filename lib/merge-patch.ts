// JSON Merge Patch (RFC 7396) over plain objects: what PATCH bodies of settings mean.

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `patch` applied to `target`: null deletes (back to the default), objects merge, the rest replaces. */
export function mergePatch(target: unknown, patch: JsonObject): JsonObject {
  const out: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (isJsonObject(value)) out[key] = mergePatch(out[key], value);
    else out[key] = value;
  }
  return out;
}
