/**
 * Italian argument descriptions (served under `/it/wp-json/` and with `ml_language=it`), keyed by the English
 * text. test/server/discovery.i18n.test.ts fails when an argument has no translation here.
 */
export const it: Record<string, string> = {
  // Discovery
  'Language of the records: on lists a filter, on creates the language of the new record':
    'Lingua dei record: negli elenchi è un filtro, nelle creazioni è la lingua del nuovo record',
  'No description provided': 'Nessuna descrizione fornita',

  // Archives (shared)
  'The archive page to return': "La pagina dell'archivio da restituire",

  // GET /events
  'The number of events to return on each page': 'Il numero di eventi da restituire per ogni pagina',
  'Events that start on the specified date': 'Eventi che iniziano nella data specificata',
  'Events that end on the specified date': 'Eventi che terminano nella data specificata',
  'Events that start before the specified date': 'Eventi che iniziano prima della data specificata',
  'Events that start after the specified date': 'Eventi che iniziano dopo la data specificata',
  'Events that end before the specified date': 'Eventi che terminano prima della data specificata',
  'Events that end after the specified date': 'Eventi che terminano dopo la data specificata',
  'Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.':
    'Le date indicate con start_date/end_date e starts_*/ends_* valgono a partire dagli orari esatti specificati. Per impostazione predefinita vengono inclusi i giorni interi.',
  'Events should contain the specified string in the title or description':
    'Gli eventi devono contenere la stringa specificata nel titolo o nella descrizione',
  'Events should be assigned one of the specified categories slugs or IDs':
    'Gli eventi devono essere assegnati a una delle categorie specificate (slug o ID)',
  'Events should be assigned one of the specified tags slugs or IDs':
    'Gli eventi devono essere assegnati a uno dei tag specificati (slug o ID)',
  'Events should be assigned one of the specified venue IDs':
    'Gli eventi devono essere assegnati a uno dei luoghi con gli ID specificati',
  'Events should be assigned one of the specified organizer IDs':
    'Gli eventi devono essere assegnati a uno degli organizzatori con gli ID specificati',
  'Events should be filtered by their featured status':
    'Filtra gli eventi in base al fatto che siano in evidenza',
  'The event post status': "Lo stato di pubblicazione dell'evento",
  'Events should be filtered by whether their venue has geolocation data':
    'Filtra gli eventi in base al fatto che il loro luogo abbia dati di geolocalizzazione',
  'Events should be filtered by their venue latitude location, must also provide geoloc_lng':
    'Filtra gli eventi in base alla latitudine del loro luogo; va indicato anche geoloc_lng',
  'Events should be filtered by their venue longitude location, must also provide geoloc_lat':
    'Filtra gli eventi in base alla longitudine del loro luogo; va indicato anche geoloc_lat',
  'Distance in kilometres from geoloc_lat/geoloc_lng within which the venue must lie (default 25)':
    'Distanza in chilometri da geoloc_lat/geoloc_lng entro la quale deve trovarsi il luogo (predefinita: 25)',
  'Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.':
    "Include gli eventi con uno degli ID di post indicati nell'array o nell'elenco CSV; i filtri per data vengono ignorati.",
  'Events should be filtered by their post_parent being the specified one.':
    'Filtra gli eventi il cui post_parent è quello specificato.',
  'Filter events with or without tickets.': 'Filtra gli eventi con o senza biglietti.',
  'Also list events hidden from listings (users who can edit events only)':
    'Elenca anche gli eventi nascosti dagli elenchi (solo per gli utenti che possono modificare gli eventi)',

  // Events: create / update / single
  'The event author ID': "L'ID dell'autore dell'evento",
  'The event publication date': "La data di pubblicazione dell'evento",
  'The event publication date (UTC time zone)': "La data di pubblicazione dell'evento (fuso orario UTC)",
  'The event title': "Il titolo dell'evento",
  'The event description': "La descrizione dell'evento",
  'The event slug': "Lo slug dell'evento",
  'The event excerpt': "Il riassunto dell'evento",
  'The event time zone': "Il fuso orario dell'evento",
  'Whether the event lasts the whole day or not': "Se l'evento dura tutto il giorno o no",
  'The event start date and time': "La data e l'ora di inizio dell'evento",
  'The event end date and time': "La data e l'ora di fine dell'evento",
  'The event featured image ID or URL': "L'ID o l'URL dell'immagine in evidenza dell'evento",
  'The event cost': "Il costo dell'evento",
  'The currency symbol of the cost ("" or null: the one in the cost text, else the site default)':
    'Il simbolo di valuta del costo ("" o null: quello nel testo del costo, altrimenti quello predefinito del sito)',
  'Where the currency symbol goes: prefix or postfix ("" or null: as in the cost text, else the site default)':
    'Dove va il simbolo di valuta: prefix (prima) o postfix (dopo) ("" o null: come nel testo del costo, altrimenti come predefinito dal sito)',
  'The ISO 4217 currency code of the cost, e.g. EUR ("" or null: the site default)':
    'Il codice valuta ISO 4217 del costo, ad es. EUR ("" o null: quello predefinito del sito)',
  'The event website URL': "L'URL del sito web dell'evento",
  'Whether the event should show a map or not': "Se l'evento deve mostrare una mappa o no",
  'Whether the event should show a map link or not': "Se l'evento deve mostrare un link alla mappa o no",
  'Whether events should be hidden in the calendar view or not':
    'Se gli eventi devono essere nascosti nella vista calendario o no',
  'Whether the event should be sticky in the calendar view or not':
    "Se l'evento deve restare in primo piano nella vista calendario o no",
  'Whether the event should be featured on the site or not':
    "Se l'evento deve essere in evidenza sul sito o no",
  'Whether the event has tickets': "Se l'evento ha biglietti",
  'The event category ID or name': "L'ID o il nome della categoria dell'evento",
  'The event tag ID or name': "L'ID o il nome del tag dell'evento",
  'The event venue IDs or data': "Gli ID o i dati del luogo dell'evento",
  'The event organizer IDs or data': "Gli ID o i dati degli organizzatori dell'evento",
  "Administrators only: the new record's uid, a UUID (a sync from another Calendar Desk keeps it); ignored for others and when another record has it":
    "Solo amministratori: l'uid del nuovo record, un UUID (una sincronizzazione da un altro Calendar Desk lo mantiene); ignorato per gli altri e quando un altro record lo ha già",
  'Makes the event repeat: RFC 5545 lines (RRULE, RDATE, EXDATE), e.g. ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8"]; [] stops it repeating':
    'Fa ripetere l\'evento: righe RFC 5545 (RRULE, RDATE, EXDATE), ad es. ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8"]; [] smette di ripeterlo',
  'For an event of a repeating series, which events the change applies to: this (the default), following (this and the later ones) or all':
    'Per un evento di una serie che si ripete, a quali eventi si applica la modifica: this (questo, il valore predefinito), following (questo e i successivi) o all (tutti)',
  'For an event of a repeating series, which events go to the trash: this (the default), following (this and the later ones) or all':
    'Per un evento di una serie che si ripete, quali eventi vanno nel cestino: this (questo, il valore predefinito), following (questo e i successivi) o all (tutti)',
  'The password that protects the event ("" removes it)':
    'La password che protegge l\'evento ("" la rimuove)',
  'the event post ID': "l'ID del post dell'evento",
  'The event password': "La password dell'evento",
  'the event post name': "il nome (slug) del post dell'evento",

  // Venues
  'The number of venues to return on each page': 'Il numero di luoghi da restituire per ogni pagina',
  'Venues should contain the specified string in the title, description or custom fields':
    'I luoghi devono contenere la stringa specificata nel titolo, nella descrizione o nei campi personalizzati',
  'Venues should be related to this event': 'I luoghi devono essere collegati a questo evento',
  'Venues should have events associated to them': 'I luoghi devono avere eventi associati',
  'Venues should have upcoming events associated to them': 'I luoghi devono avere eventi futuri associati',
  'The venue post status': 'Lo stato di pubblicazione del luogo',
  'The venue author ID': "L'ID dell'autore del luogo",
  'The venue publication date': 'La data di pubblicazione del luogo',
  'The venue publication date (UTC time zone)': 'La data di pubblicazione del luogo (fuso orario UTC)',
  'The venue name': 'Il nome del luogo',
  'The venue description': 'La descrizione del luogo',
  'Whether events linked to the venue should show a map or not':
    'Se gli eventi collegati al luogo devono mostrare una mappa o no',
  'Whether events linked to the venue should show a map link or not':
    'Se gli eventi collegati al luogo devono mostrare un link alla mappa o no',
  'The venue address': "L'indirizzo del luogo",
  'The venue city': 'La città del luogo',
  'The venue country': 'Il paese del luogo',
  'The venue province': 'La provincia del luogo',
  'The venue state': 'Lo stato (USA) del luogo',
  'The venue ZIP code': 'Il codice postale (CAP) del luogo',
  'The venue phone number': 'Il numero di telefono del luogo',
  'The venue state and province': 'Lo stato o la provincia del luogo',
  'The venue website URL': "L'URL del sito web del luogo",
  'The venue featured image ID or URL': "L'ID o l'URL dell'immagine in evidenza del luogo",
  'The venue latitude (decimal degrees)': 'La latitudine del luogo (in gradi decimali)',
  'The venue longitude (decimal degrees)': 'La longitudine del luogo (in gradi decimali)',
  'the venue post ID': "l'ID del post del luogo",
  'the venue post name': 'il nome (slug) del post del luogo',

  // Organizers
  'The number of organizers to return on each page':
    'Il numero di organizzatori da restituire per ogni pagina',
  'Organizers should contain the specified string in the title, description or custom fields':
    'Gli organizzatori devono contenere la stringa specificata nel titolo, nella descrizione o nei campi personalizzati',
  'Organizers should be related to this event': 'Gli organizzatori devono essere collegati a questo evento',
  'Organizers should have events associated to them': 'Gli organizzatori devono avere eventi associati',
  'Organizers should have upcoming events associated to them':
    'Gli organizzatori devono avere eventi futuri associati',
  'The organizer post status': "Lo stato di pubblicazione dell'organizzatore",
  'The organizer author ID': "L'ID dell'autore dell'organizzatore",
  'The organizer publication date': "La data di pubblicazione dell'organizzatore",
  'The organizer publication date (UTC time zone)':
    "La data di pubblicazione dell'organizzatore (fuso orario UTC)",
  'The organizer name': "Il nome dell'organizzatore",
  'The organizer description': "La descrizione dell'organizzatore",
  'The organizer phone number': "Il numero di telefono dell'organizzatore",
  'The organizer website': "Il sito web dell'organizzatore",
  'The organizer e-mail address': "L'indirizzo e-mail dell'organizzatore",
  'The organizer featured image ID or URL': "L'ID o l'URL dell'immagine in evidenza dell'organizzatore",
  'the organizer post ID': "l'ID del post dell'organizzatore",
  'the organizer post name': "il nome (slug) del post dell'organizzatore",

  // Categories and tags
  'The number of event categories to return on each page':
    'Il numero di categorie di eventi da restituire per ogni pagina',
  'The number of event tags to return on each page':
    'Il numero di tag di eventi da restituire per ogni pagina',
  'Limit results to those matching a string': 'Limita i risultati a quelli che corrispondono a una stringa',
  'Ensure result set exclude specific IDs': 'Esclude dai risultati gli ID specificati',
  'Limit result set to specific IDs': 'Limita i risultati agli ID specificati',
  'Order sort attribute ascending or descending': 'Ordina in modo crescente o decrescente',
  'Sort collection by term attribute': 'Ordina la raccolta in base a un attributo del termine',
  'Whether to hide terms not assigned to any posts': 'Se nascondere i termini non assegnati ad alcun post',
  'Limit result set to terms assigned to a specific parent':
    'Limita i risultati ai termini che hanno un genitore specifico',
  'Limit result set to terms assigned to a specific post':
    'Limita i risultati ai termini assegnati a un post specifico',
  'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)':
    'Limita i risultati ai termini assegnati a un evento specifico (un alias del parametro "post")',
  'Limit result set to terms with a specific slug': 'Limita i risultati ai termini con uno slug specifico',
  'The event category name': 'Il nome della categoria di eventi',
  'The event category description': 'La descrizione della categoria di eventi',
  'The event category slug': 'Lo slug della categoria di eventi',
  'The event category parent term ID': "L'ID del termine genitore della categoria di eventi",
  'the event category term ID': "l'ID del termine della categoria di eventi",
  'The event tag name': 'Il nome del tag di eventi',
  'The event tag description': 'La descrizione del tag di eventi',
  'The event tag slug': 'Lo slug del tag di eventi',
  'the event tag term ID': "l'ID del termine del tag di eventi",

  // Merging venues or organizers (admin namespace)
  'The id of the venue to keep (required)': "L'ID del luogo da tenere (obbligatorio)",
  'The id of the organizer to keep (required)': "L'ID dell'organizzatore da tenere (obbligatorio)",
};
