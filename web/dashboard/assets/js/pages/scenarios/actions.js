// What can be done with a saved scenario from its header: practise it, export it, delete it.
import { api } from '../../api.js';
import { Button, ConfirmButton } from '../../components/ui.js';
import { useAction } from '../../hooks.js';
import { html } from '../../lib.js';
import { navigate } from '../../router.js';
import { useSession } from '../../session.js';

/** A file name from the scenario's name: letters, digits and dashes. */
const fileNameOf = (name) =>
  `${
    String(name)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'scenario'
  }.json`;

/** The meeting's page with its room token (added here when the API's URL does not carry it). */
function meetingPage(meeting) {
  const url = new URL(meeting.meeting_url, location.origin);
  if (!url.searchParams.has('t') && meeting.room_token) url.searchParams.set('t', meeting.room_token);
  return url.href;
}

/** Downloads GET /v1/scenarios/{id}/export as a JSON file. */
async function exportScenario(scenario) {
  const document_ = await api.get(`scenarios/${scenario.id}/export`);
  const blob = new Blob([`${JSON.stringify(document_, null, 2)}\n`], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileNameOf(scenario.name);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** The header's buttons and the error of the last action (shown by the page under its header). */
export function useScenarioActions(scenario) {
  const { session } = useSession();
  const [practise, practising] = useAction(async () => {
    const answer = await api.post('meetings', {
      scenario_id: scenario.id,
      person_name: session?.user?.name || session?.user?.email || undefined,
    });
    window.location.assign(meetingPage(answer.data ?? answer));
  });
  const [download, downloading] = useAction(() => exportScenario(scenario));
  const buttons = html`<${Button} variant="primary" busy=${practising.busy} onClick=${practise}>Start a practice meeting<//>
    <${Button} busy=${downloading.busy} onClick=${download}>Export<//>
    <${ConfirmButton} label="Delete" title="Delete this scenario?"
      message=${`${scenario.name} is deleted for everyone in the workspace. Its past meetings, transcripts and analyses stay readable.`}
      confirmLabel="Delete scenario"
      onConfirm=${async () => {
        await api.del(`scenarios/${scenario.id}`);
        navigate('/scenarios', { replace: true });
      }} />`;
  return { buttons, error: practising.error ?? downloading.error };
}
