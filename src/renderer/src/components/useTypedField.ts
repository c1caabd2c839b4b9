import { computed, ref, watch, type ComputedRef, type Ref } from 'vue';
import { usePreferencesStore } from '../stores/preferences';
import { formatLocale } from '../i18n/formats';

/** How a typed field shows its model in the interface language, and reads back what is typed. */
export interface TypedFormat {
  /** The model written the locale's way (an unknown value as it is). */
  format(value: string, locale: string): string;
  /** What is typed as a model value, or null while it is not a whole one. */
  parse(text: string, locale: string): string | null;
  /** A field that may stay empty: clearing it clears the model. */
  optional?: boolean;
}

/**
 * The text of a field that shows its model the interface language's way (DateField, TimeField), whatever the
 * browser's own language. While typing, the model takes the value as soon as it is a whole one (the display
 * is left alone); on leaving the field, the text is written back the locale's way (or what it was, when it
 * does not read).
 */
export function useTypedField(
  model: Ref<string>,
  format: TypedFormat,
): { text: Ref<string>; locale: ComputedRef<string>; onInput: () => void; onChange: () => void } {
  const preferences = usePreferencesStore();
  const locale = computed(() => formatLocale(preferences.language));
  const text = ref('');

  /** The value this field itself just set from typing: not written back over what is being typed. */
  let typed: string | null = null;
  watch(
    [model, locale],
    () => {
      if (model.value !== typed) text.value = format.format(model.value, locale.value);
      typed = null;
    },
    { immediate: true },
  );

  function onInput() {
    if (format.optional && text.value.trim() === '') {
      typed = '';
      model.value = '';
      return;
    }
    const parsed = format.parse(text.value, locale.value);
    if (parsed && parsed !== model.value) {
      typed = parsed;
      model.value = parsed;
    }
  }
  function onChange() {
    onInput();
    typed = null;
    text.value = format.format(model.value, locale.value);
  }
  return { text, locale, onInput, onChange };
}
