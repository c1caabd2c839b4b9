// The floor of `npm run bench:ui`: FullCalendar alone, from the project's own packages, drawing the month's
// events from memory (bench/ui.mjs writes them into events.js beside the built page) with the calendar
// screen's options. No app, no API, no Vue: what drawing those events costs in this Chromium.
/* global document, location -- runs in the browser */
import { Calendar } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import listPlugin from '@fullcalendar/list';
import interactionPlugin from '@fullcalendar/interaction';
import luxonPlugin from '@fullcalendar/luxon3';

const { events, zone, date } = await import(/* @vite-ignore */ `${location.origin}/events.js`);
const calendar = new Calendar(document.getElementById('calendar'), {
  plugins: [dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin, luxonPlugin],
  initialView: 'dayGridMonth',
  initialDate: date,
  timeZone: zone,
  firstDay: 1,
  height: '100%',
  headerToolbar: {
    left: 'prev,next today',
    center: 'title',
    right: 'dayGridMonth,timeGridWeek,timeGridDay,listMonth',
  },
  nowIndicator: true,
  scrollTime: '08:00:00',
  dayMaxEvents: 4,
  editable: true,
  selectable: true,
  selectMirror: true,
  eventTimeFormat: { hour: 'numeric', minute: '2-digit' },
  slotLabelFormat: { hour: 'numeric', minute: '2-digit' },
  events,
});
calendar.render();
