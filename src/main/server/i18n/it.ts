export const it: Record<string, string> = {};
