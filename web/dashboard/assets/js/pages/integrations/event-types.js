// The webhook event catalogue (GET /v1/webhooks/event-types), shared by the endpoint list, the
// create form and the endpoint's own page.
import { api, itemsOf } from '../../api.js';
import { Checkbox } from '../../components/ui.js';
import { html } from '../../lib.js';

export const ALL_EVENTS = '*';

export const loadEventTypes = () => api.get('webhooks/event-types').then(itemsOf);

/** "All events" or the names, for a table cell. */
export const eventsLabel = (events) =>
  !events?.length || events.includes(ALL_EVENTS) ? 'All events' : events.join(', ');

/** Checkboxes for `subscribed_events`: "All events", or a pick from the catalogue. */
export function EventPicker({ types, value, onChange }) {
  const all = value.includes(ALL_EVENTS);
  const toggle = (type, on) => {
    const rest = value.filter((name) => name !== type && name !== ALL_EVENTS);
    onChange(on ? [...rest, type] : rest.length ? rest : [ALL_EVENTS]);
  };
  return html`<fieldset class="event-picker">
    <legend>Events to send</legend>
    <${Checkbox} label="All events" hint="Including event types added later." checked=${all}
      onChange=${(on) => onChange(on ? [ALL_EVENTS] : [])} />
    ${types
      .filter((type) => type.fires !== false)
      .map(
        (type) => html`<${Checkbox} key=${type.type} label=${type.type} hint=${type.description}
          checked=${all || value.includes(type.type)} disabled=${all}
          onChange=${(on) => toggle(type.type, on)} />`,
      )}
  </fieldset>`;
}
