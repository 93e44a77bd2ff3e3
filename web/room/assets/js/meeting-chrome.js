// The meeting screen's fixed parts, drawn once from the welcome data: the title, the persona's
// name, title and picture (initials without one), the timer and its limit, the leave button and
// the participant's own camera tile.

import { byId, formatClock, initials, setImage, setText } from './dom.js';

/**
 * @param {object} options
 * @param {object} options.welcome  welcome data
 * @param {string} options.personaName
 * @param {number} options.limitSeconds  the call's duration limit (0: none)
 * @param {MediaStream | null} options.stream
 * @param {boolean} options.camera
 */
export function renderMeetingChrome({ welcome, personaName, limitSeconds, stream, camera }) {
  const { scenario, persona, controls } = welcome;
  setText('meeting-title', scenario?.name ?? 'Meeting');
  setText('meeting-persona-name', personaName);
  setText('meeting-persona-title', persona?.job_title ?? '');
  const fallback = byId('meeting-initials');
  fallback.textContent = initials(persona?.name);
  setImage(byId('meeting-avatar'), persona?.avatar_url, '', fallback);
  byId('timer').hidden = controls?.show_timer === false;
  // The scenario may keep the participant from ending the call (it ends by time or by the persona).
  byId('leave').hidden = controls?.allow_participant_end === false;
  setText('timer-limit', limitSeconds ? formatClock(limitSeconds) : '--:--');
  if (stream && camera) {
    byId('self-video').srcObject = stream;
    byId('self-tile').dataset.camera = 'on';
  }
  byId('rec-indicator').hidden = true;
}
