import { z } from 'zod';

/**
 * What the editor checks before sending (the API checks everything again and its messages are shown by
 * field). Messages are translation keys under `validation.`.
 */
export const eventFormSchema = z
  .object({
    title: z.string().trim().min(1, 'titleRequired'),
    startDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'dateRequired'),
    endDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'dateRequired'),
    startTime: z.string(),
    endTime: z.string(),
    allDay: z.boolean(),
  })
  .superRefine((form, context) => {
    const start = form.allDay ? form.startDate : `${form.startDate}T${form.startTime}`;
    const end = form.allDay ? form.endDate : `${form.endDate}T${form.endTime}`;
    if (end < start) context.addIssue({ code: 'custom', path: ['endDate'], message: 'endBeforeStart' });
  });
