// Platform values (docs/push.md): `Android` and `iOS`, accepted in any
// letter case, answered in that spelling.
export const PLATFORMS = ['Android', 'iOS'] as const;
export type Platform = (typeof PLATFORMS)[number];

export function canonicalPlatform(value: string): Platform | null {
  const v = value.trim().toLowerCase();
  return PLATFORMS.find((p) => p.toLowerCase() === v) ?? null;
}
