/** What an organisation may have to share its calendar through: the questions of the "Share this calendar" guide. */
export const SHARE_CHOICES = ['wordpress', 'caldav', 'nothing'] as const;
export type ShareChoice = (typeof SHARE_CHOICES)[number];

/** The choice named by the guide's address (`?have=…`), or null while none (or an unknown one) is named. */
export function shareChoiceOf(value: unknown): ShareChoice | null {
  return (SHARE_CHOICES as readonly unknown[]).includes(value) ? (value as ShareChoice) : null;
}
