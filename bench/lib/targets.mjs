/** Start at 100,000 events against a start at 1,000, alternating (issue 32 item 1): read by run.mjs and startup.mjs. */
export const START_RATIO_TARGET = 1.5;
