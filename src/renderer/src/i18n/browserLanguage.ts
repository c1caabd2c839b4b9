/** The interface languages: every language a record can carry (`ml_language`), in the same order. */
export const INTERFACE_LANGUAGES = ['cs', 'en', 'fr', 'de', 'it', 'pl', 'es'] as const;
export type InterfaceLanguage = (typeof INTERFACE_LANGUAGES)[number];

export function isInterfaceLanguage(value: unknown): value is InterfaceLanguage {
  return INTERFACE_LANGUAGES.includes(value as InterfaceLanguage);
}

/**
 * The interface language at first start (no choice saved yet): the first of the browser's languages, in the
 * user's order of preference, that the app speaks (de-AT → de; a Slovak system that also lists Czech → cs),
 * else English. In the desktop app the browser's languages are the system's; with `serve`, the browser's.
 */
export function browserLanguage(preferred: readonly string[]): InterfaceLanguage {
  for (const tag of preferred) {
    const language = tag.toLowerCase().split(/[-_]/)[0];
    if (isInterfaceLanguage(language)) return language;
  }
  return 'en';
}
