/**
 * Polish argument descriptions (served under `/pl/wp-json/` and with `ml_language=pl`), keyed by the English
 * text. test/server/discovery.i18n.test.ts fails when an argument has no translation here.
 */
export const pl: Record<string, string> = {
  // Discovery
  'Language of the records: on lists a filter, on creates the language of the new record':
    'Język rekordów: na listach służy jako filtr, przy tworzeniu określa język nowego rekordu',
  'No description provided': 'Nie podano opisu',

  // Archives (shared)
  'The archive page to return': 'Strona archiwum do zwrócenia',

  // GET /events
  'The number of events to return on each page': 'Liczba wydarzeń zwracanych na jednej stronie',
  'Events that start on the specified date': 'Wydarzenia rozpoczynające się w podanym dniu',
  'Events that end on the specified date': 'Wydarzenia kończące się w podanym dniu',
  'Events that start before the specified date': 'Wydarzenia rozpoczynające się przed podaną datą',
  'Events that start after the specified date': 'Wydarzenia rozpoczynające się po podanej dacie',
  'Events that end before the specified date': 'Wydarzenia kończące się przed podaną datą',
  'Events that end after the specified date': 'Wydarzenia kończące się po podanej dacie',
  'Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.':
    'Daty podane w start_date/end_date oraz starts_*/ends_* obowiązują od dokładnie wskazanych godzin. Domyślnie uwzględniane są całe dni.',
  'Events should contain the specified string in the title or description':
    'Tytuł lub opis wydarzenia musi zawierać podany tekst',
  'Events should be assigned one of the specified categories slugs or IDs':
    'Wydarzenia muszą należeć do jednej z podanych kategorii (slugi lub identyfikatory)',
  'Events should be assigned one of the specified tags slugs or IDs':
    'Wydarzenia muszą mieć jeden z podanych tagów (slugi lub identyfikatory)',
  'Events should be assigned one of the specified venue IDs':
    'Wydarzenia muszą odbywać się w jednym z miejsc o podanych identyfikatorach',
  'Events should be assigned one of the specified organizer IDs':
    'Wydarzenia muszą mieć jednego z organizatorów o podanych identyfikatorach',
  'Events should be filtered by their featured status': 'Filtruje wydarzenia według tego, czy są wyróżnione',
  'The event post status': 'Status publikacji wydarzenia',
  'Events should be filtered by whether their venue has geolocation data':
    'Filtruje wydarzenia według tego, czy ich miejsce ma dane geolokalizacyjne',
  'Events should be filtered by their venue latitude location, must also provide geoloc_lng':
    'Filtruje wydarzenia według szerokości geograficznej ich miejsca; wymaga również podania geoloc_lng',
  'Events should be filtered by their venue longitude location, must also provide geoloc_lat':
    'Filtruje wydarzenia według długości geograficznej ich miejsca; wymaga również podania geoloc_lat',
  'Distance in kilometres from geoloc_lat/geoloc_lng within which the venue must lie (default 25)':
    'Odległość w kilometrach od punktu geoloc_lat/geoloc_lng, w jakiej musi leżeć miejsce (domyślnie 25)',
  'Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.':
    'Uwzględnia wydarzenia o jednym z identyfikatorów wpisów podanych w tablicy lub liście CSV; filtry dat są wtedy pomijane.',
  'Events should be filtered by their post_parent being the specified one.':
    'Filtruje wydarzenia, których post_parent jest równy podanemu.',
  'Filter events with or without tickets.': 'Filtruje wydarzenia z biletami lub bez nich.',
  'Also list events hidden from listings (users who can edit events only)':
    'Pokazuje także wydarzenia ukryte na listach (tylko dla użytkowników, którzy mogą edytować wydarzenia)',

  // Events: create / update / single
  'The event author ID': 'Identyfikator autora wydarzenia',
  'The event publication date': 'Data publikacji wydarzenia',
  'The event publication date (UTC time zone)': 'Data publikacji wydarzenia (strefa czasowa UTC)',
  'The event title': 'Tytuł wydarzenia',
  'The event description': 'Opis wydarzenia',
  'The event slug': 'Uproszczona nazwa (slug) wydarzenia',
  'The event excerpt': 'Zajawka wydarzenia',
  'The event time zone': 'Strefa czasowa wydarzenia',
  'Whether the event lasts the whole day or not': 'Czy wydarzenie trwa cały dzień',
  'The event start date and time': 'Data i godzina rozpoczęcia wydarzenia',
  'The event end date and time': 'Data i godzina zakończenia wydarzenia',
  'The event featured image ID or URL': 'Identyfikator lub adres URL obrazka wyróżniającego wydarzenia',
  'The event cost': 'Koszt wydarzenia',
  'The currency symbol of the cost ("" or null: the one in the cost text, else the site default)':
    'Symbol waluty kosztu ("" lub null: ten z tekstu kosztu, a bez niego domyślny symbol witryny)',
  'Where the currency symbol goes: prefix or postfix ("" or null: as in the cost text, else the site default)':
    'Gdzie stoi symbol waluty: prefix (przed kwotą) lub postfix (po kwocie) ("" lub null: jak w tekście kosztu, a bez niego domyślnie dla witryny)',
  'The ISO 4217 currency code of the cost, e.g. EUR ("" or null: the site default)':
    'Kod waluty ISO 4217 kosztu, np. EUR ("" lub null: domyślny kod witryny)',
  'The event website URL': 'Adres URL strony internetowej wydarzenia',
  'Whether the event should show a map or not': 'Czy przy wydarzeniu ma być wyświetlana mapa',
  'Whether the event should show a map link or not':
    'Czy przy wydarzeniu ma być wyświetlany odnośnik do mapy',
  'Whether events should be hidden in the calendar view or not':
    'Czy wydarzenia mają być ukryte w widoku kalendarza',
  'Whether the event should be sticky in the calendar view or not':
    'Czy wydarzenie ma być przypięte w widoku kalendarza',
  'Whether the event should be featured on the site or not': 'Czy wydarzenie ma być wyróżnione w serwisie',
  'Whether the event has tickets': 'Czy na wydarzenie są bilety',
  'The event category ID or name': 'Identyfikator lub nazwa kategorii wydarzenia',
  'The event tag ID or name': 'Identyfikator lub nazwa tagu wydarzenia',
  'The event venue IDs or data': 'Identyfikatory lub dane miejsca wydarzenia',
  'The event organizer IDs or data': 'Identyfikatory lub dane organizatorów wydarzenia',
  "Administrators only: the new record's uid, a UUID (a sync from another Calendar Desk keeps it); ignored for others and when another record has it":
    'Tylko administratorzy: uid nowego rekordu, UUID (synchronizacja z innego Calendar Desk go zachowuje); pomijany dla innych i gdy ma go już inny rekord',
  'Makes the event repeat: RFC 5545 lines (RRULE, RDATE, EXDATE), e.g. ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8"]; [] stops it repeating':
    'Sprawia, że wydarzenie się powtarza: wiersze RFC 5545 (RRULE, RDATE, EXDATE), np. ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8"]; [] kończy powtarzanie',
  'For an event of a repeating series, which events the change applies to: this (the default), following (this and the later ones) or all':
    'Dla wydarzenia z powtarzającej się serii: których wydarzeń dotyczy zmiana: this (tego, domyślnie), following (tego i późniejszych) lub all (wszystkich)',
  'For an event of a repeating series, which events go to the trash: this (the default), following (this and the later ones) or all':
    'Dla wydarzenia z powtarzającej się serii: które wydarzenia trafiają do kosza: this (to, domyślnie), following (to i późniejsze) lub all (wszystkie)',
  'The password that protects the event ("" removes it)': 'Hasło chroniące wydarzenie ("" je usuwa)',
  'the event post ID': 'identyfikator wpisu wydarzenia',
  'The event password': 'Hasło wydarzenia',
  'the event post name': 'nazwa wpisu (slug) wydarzenia',

  // Venues
  'The number of venues to return on each page': 'Liczba miejsc zwracanych na jednej stronie',
  'Venues should contain the specified string in the title, description or custom fields':
    'Tytuł, opis lub pola własne miejsca muszą zawierać podany tekst',
  'Venues should be related to this event': 'Miejsca muszą być powiązane z tym wydarzeniem',
  'Venues should have events associated to them': 'Miejsca muszą mieć powiązane wydarzenia',
  'Venues should have upcoming events associated to them':
    'Miejsca muszą mieć powiązane nadchodzące wydarzenia',
  'The venue post status': 'Status publikacji miejsca',
  'The venue author ID': 'Identyfikator autora miejsca',
  'The venue publication date': 'Data publikacji miejsca',
  'The venue publication date (UTC time zone)': 'Data publikacji miejsca (strefa czasowa UTC)',
  'The venue name': 'Nazwa miejsca',
  'The venue description': 'Opis miejsca',
  'Whether events linked to the venue should show a map or not':
    'Czy przy wydarzeniach powiązanych z miejscem ma być wyświetlana mapa',
  'Whether events linked to the venue should show a map link or not':
    'Czy przy wydarzeniach powiązanych z miejscem ma być wyświetlany odnośnik do mapy',
  'The venue address': 'Adres miejsca',
  'The venue city': 'Miasto, w którym znajduje się miejsce',
  'The venue country': 'Kraj, w którym znajduje się miejsce',
  'The venue province': 'Prowincja, w której znajduje się miejsce',
  'The venue state': 'Stan (USA), w którym znajduje się miejsce',
  'The venue ZIP code': 'Kod pocztowy miejsca',
  'The venue phone number': 'Numer telefonu miejsca',
  'The venue state and province': 'Stan lub prowincja, w której znajduje się miejsce',
  'The venue website URL': 'Adres URL strony internetowej miejsca',
  'The venue featured image ID or URL': 'Identyfikator lub adres URL obrazka wyróżniającego miejsca',
  'The venue latitude (decimal degrees)': 'Szerokość geograficzna miejsca (w stopniach dziesiętnych)',
  'The venue longitude (decimal degrees)': 'Długość geograficzna miejsca (w stopniach dziesiętnych)',
  'the venue post ID': 'identyfikator wpisu miejsca',
  'the venue post name': 'nazwa wpisu (slug) miejsca',

  // Organizers
  'The number of organizers to return on each page': 'Liczba organizatorów zwracanych na jednej stronie',
  'Organizers should contain the specified string in the title, description or custom fields':
    'Tytuł, opis lub pola własne organizatora muszą zawierać podany tekst',
  'Organizers should be related to this event': 'Organizatorzy muszą być powiązani z tym wydarzeniem',
  'Organizers should have events associated to them': 'Organizatorzy muszą mieć powiązane wydarzenia',
  'Organizers should have upcoming events associated to them':
    'Organizatorzy muszą mieć powiązane nadchodzące wydarzenia',
  'The organizer post status': 'Status publikacji organizatora',
  'The organizer author ID': 'Identyfikator autora organizatora',
  'The organizer publication date': 'Data publikacji organizatora',
  'The organizer publication date (UTC time zone)': 'Data publikacji organizatora (strefa czasowa UTC)',
  'The organizer name': 'Nazwa organizatora',
  'The organizer description': 'Opis organizatora',
  'The organizer phone number': 'Numer telefonu organizatora',
  'The organizer website': 'Strona internetowa organizatora',
  'The organizer e-mail address': 'Adres e-mail organizatora',
  'The organizer featured image ID or URL': 'Identyfikator lub adres URL obrazka wyróżniającego organizatora',
  'the organizer post ID': 'identyfikator wpisu organizatora',
  'the organizer post name': 'nazwa wpisu (slug) organizatora',

  // Categories and tags
  'The number of event categories to return on each page':
    'Liczba kategorii wydarzeń zwracanych na jednej stronie',
  'The number of event tags to return on each page': 'Liczba tagów wydarzeń zwracanych na jednej stronie',
  'Limit results to those matching a string': 'Ogranicza wyniki do tych, które pasują do podanego tekstu',
  'Ensure result set exclude specific IDs': 'Wyklucza z wyników podane identyfikatory',
  'Limit result set to specific IDs': 'Ogranicza wyniki do podanych identyfikatorów',
  'Order sort attribute ascending or descending': 'Kierunek sortowania: rosnąco lub malejąco',
  'Sort collection by term attribute': 'Sortuje kolekcję według atrybutu terminu',
  'Whether to hide terms not assigned to any posts': 'Czy ukryć terminy nieprzypisane do żadnego wpisu',
  'Limit result set to terms assigned to a specific parent':
    'Ogranicza wyniki do terminów podrzędnych względem określonego rodzica',
  'Limit result set to terms assigned to a specific post':
    'Ogranicza wyniki do terminów przypisanych do określonego wpisu',
  'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)':
    'Ogranicza wyniki do terminów przypisanych do określonego wydarzenia (alias parametru "post")',
  'Limit result set to terms with a specific slug': 'Ogranicza wyniki do terminów o określonym slugu',
  'The event category name': 'Nazwa kategorii wydarzeń',
  'The event category description': 'Opis kategorii wydarzeń',
  'The event category slug': 'Uproszczona nazwa (slug) kategorii wydarzeń',
  'The event category parent term ID': 'Identyfikator kategorii nadrzędnej',
  'the event category term ID': 'identyfikator terminu kategorii wydarzeń',
  'The event tag name': 'Nazwa tagu wydarzeń',
  'The event tag description': 'Opis tagu wydarzeń',
  'The event tag slug': 'Uproszczona nazwa (slug) tagu wydarzeń',
  'the event tag term ID': 'identyfikator terminu tagu wydarzeń',

  // Merging venues or organizers (admin namespace)
  'The id of the venue to keep (required)': 'Identyfikator miejsca, które zostaje (wymagany)',
  'The id of the organizer to keep (required)': 'Identyfikator organizatora, który zostaje (wymagany)',
};
