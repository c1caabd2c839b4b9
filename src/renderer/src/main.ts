// Placeholder until the calendar UI lands (issue 4): shows where the API lives.
const app = document.getElementById('app');
if (app) {
  const heading = document.createElement('h1');
  heading.textContent = 'Calendar Desk';
  const text = document.createElement('p');
  text.textContent = `The local API is at ${location.origin}/wp-json/cal/events/v1`;
  app.append(heading, text);
}
