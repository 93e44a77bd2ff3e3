// The post-call questions (docs/room.md, "Feedback"): after the end, the participant says how the
// call went, ticks what went wrong, and may add a comment. The team reads the answer on the
// meeting's page in the dashboard. Optional: closing the window answers nothing.

import { byId, setText } from './dom.js';

function choice(type, name, entry, id) {
  const wrap = document.createElement('div');
  wrap.className = 'check';
  const input = document.createElement('input');
  input.type = type;
  input.name = name;
  input.value = entry.key;
  input.id = id;
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = entry.label;
  wrap.append(input, label);
  return wrap;
}

function fill(containerId, type, name, entries) {
  byId(containerId).replaceChildren(
    ...entries.map((entry) => choice(type, name, entry, `feedback-${name}-${entry.key}`)),
  );
}

const checked = (form, name) =>
  [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((input) => input.value);

/** Shows the questions on the ended screen; never throws (feedback is optional). */
export async function showFeedback(api) {
  let catalog;
  try {
    catalog = await api.feedbackCatalog();
  } catch {
    return; // an older server, or the network is gone: the end screen stays as it is
  }
  const form = byId('feedback-form');
  fill('feedback-ratings', 'radio', 'rating', catalog.ratings);
  fill('feedback-video', 'checkbox', 'video', catalog.video_issues);
  fill('feedback-agent', 'checkbox', 'agent', catalog.agent_issues);
  const issues = byId('feedback-issues');
  const ratingIs = (key) => form.querySelector(`input[name="rating"][value="${key}"]`)?.checked;
  form.addEventListener('change', () => {
    // The checklist is for a call that had issues; a good one goes straight to the comment.
    issues.hidden = !ratingIs('had_issues');
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const rating = checked(form, 'rating')[0];
    if (!rating) {
      setText('feedback-status', 'Choose how the call went first.');
      return;
    }
    const send = byId('feedback-send');
    send.disabled = true;
    setText('feedback-status', 'Sending…');
    try {
      const comment = byId('feedback-comment').value.trim();
      await api.sendFeedback({
        rating,
        video_issues: rating === 'had_issues' ? checked(form, 'video') : [],
        agent_issues: rating === 'had_issues' ? checked(form, 'agent') : [],
        comment: comment || null,
      });
      setText('feedback-status', 'Thank you: your feedback was sent to the team.');
      send.textContent = 'Update feedback';
    } catch (error) {
      setText('feedback-status', `Your feedback could not be sent: ${error.message}`);
    } finally {
      send.disabled = false;
    }
  });
  byId('ended-feedback').hidden = false;
}
