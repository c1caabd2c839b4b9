export const pl: Record<string, string> = {};
