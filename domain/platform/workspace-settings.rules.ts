// A platform workspace's settings as the API takes them (docs/platform.md, "Workspaces"):
// `timezone` an IANA zone, `default_language` a BCP 47 tag. Pure: the schemas validate with
// these and store the canonical spelling they answer.

const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+\-]*(?:\/[A-Za-z0-9_+\-]+)*$/;

/**
 * The canonical spelling of an IANA time zone (`europe/paris` → `Europe/Paris`, `UTC`), or
 * null for anything the runtime's time zone data does not know. Offsets (`+01:00`) and
 * abbreviations other than the zone names themselves are refused by the shape.
 */
export function canonicalTimeZone(zone: string): string | null {
  if (zone.length > 64 || !ZONE_SHAPE.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const TAG_SHAPE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The canonical spelling of a BCP 47 language tag (`pt-br` → `pt-BR`, `zh-hant-tw` →
 * `zh-Hant-TW`), or null when it is not a well-formed tag starting with a 2–3 letter
 * language (private-use and grandfathered tags are refused).
 */
export function canonicalLanguageTag(tag: string): string | null {
  if (tag.length > 35 || !TAG_SHAPE.test(tag)) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical ?? null;
  } catch {
    return null;
  }
}

export const DEFAULT_WORKSPACE_TIMEZONE = 'UTC';
export const DEFAULT_WORKSPACE_LANGUAGE = 'en';
