import { reactive, ref, type Ref } from 'vue';
import type {
  OrganizerResponse,
  RecordKind,
  RecordOfKind,
  TermResponse,
  VenueResponse,
} from '../../api/records';
import { useRecordsStore } from '../../stores/records';

/** Every venue, organizer, category and tag, for the event editor's pickers. */
export type PickerLists = { [K in RecordKind]: RecordOfKind[K][] };

/** Records created from the editor (each joins its picker at once). */
export interface RecordCreators {
  venue: (fields: Record<string, string>) => Promise<VenueResponse>;
  organizer: (name: string) => Promise<OrganizerResponse>;
  category: (name: string) => Promise<TermResponse>;
  tag: (name: string) => Promise<TermResponse>;
}

/** The lists the event editor picks from, read together, and the records created from the editor. */
export function usePickerLists() {
  const records = useRecordsStore();
  const venues = ref<VenueResponse[]>([]);
  const organizers = ref<OrganizerResponse[]>([]);
  const categories = ref<TermResponse[]>([]);
  const tags = ref<TermResponse[]>([]);
  const lists: PickerLists = reactive({ venues, organizers, categories, tags });

  /** Reads all four lists; if one cannot be read, none changes (and the error says why). */
  async function load(): Promise<void> {
    [venues.value, organizers.value, categories.value, tags.value] = await Promise.all([
      records.all('venues'),
      records.all('organizers'),
      records.all('categories'),
      records.all('tags'),
    ]);
  }

  async function createInline<K extends RecordKind>(
    kind: K,
    body: Record<string, unknown>,
    list: Ref<RecordOfKind[K][]>,
  ) {
    const record = await records.create(kind, body);
    list.value = [...list.value, record];
    return record;
  }
  const create: RecordCreators = {
    venue: (fields) => createInline('venues', fields, venues),
    organizer: (name) => createInline('organizers', { organizer: name }, organizers),
    category: (name) => createInline('categories', { name }, categories),
    tag: (name) => createInline('tags', { name }, tags),
  };

  return { lists, load, create };
}
