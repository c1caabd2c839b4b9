import { z } from 'zod';

/** A feed's address, as calendar apps subscribe to it. */
export const feedAddressSchema = z.object({ http: z.string(), webcal: z.string() });
const namedFeedSchema = feedAddressSchema.extend({ id: z.number(), name: z.string() });

/** `calendar-desk/v1/feeds`, as the server answers it (src/main/core/feeds/addresses.ts). */
export const feedsOverviewSchema = z.object({
  enabled: z.boolean(),
  past_months: z.number(),
  calendar: feedAddressSchema.nullable(),
  categories: z.array(namedFeedSchema),
  venues: z.array(namedFeedSchema),
  address_notice: z.string().nullable(),
});
export type FeedsOverview = z.infer<typeof feedsOverviewSchema>;
