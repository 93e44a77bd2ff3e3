// The meeting room: welcome → camera and microphone → recording consent (when the scenario asks
// for it) → the meeting → the end (and the recording upload). Served at /room/<id>?t=<token>
// (embeddable) and /meetings/<id>?t=<token> (full page, which also shows the transcript after
// the end). The protocol is documented in docs/realtime.md.

import { RoomApi, readLocation } from './api.js';
import { DevicePicker } from './audio/devices.js';
import { MeetingAudio } from './audio/graph.js';
import {
  byId,
  firstName,
  formatClock,
  formatMinutes,
  initials,
  setImage,
  setText,
  showScreen,
} from './dom.js';
import { showFeedback } from './feedback.js';
import { Listener } from './listener.js';
import { meterLevel, microphoneDeviceId, requestMedia, stopStream, switchMicrophone } from './media.js';
import { Meeting } from './meeting.js';
import { recordingSupported } from './recorder.js';
import { showResults } from './results.js';

const END_REASONS = {
  participant_left: () => 'You left the meeting.',
  duration_limit: () => 'The time limit for this meeting was reached.',
  ended_by_api: () => 'The organiser ended the meeting.',
  agent_ended: (persona) => `${persona} ended the meeting.`,
  script_complete: (persona) => `${persona} wrapped up the conversation.`,
  idle_timeout: () => 'The meeting ended after a long silence.',
  replaced: () => 'This meeting was opened in another window or tab, so it continues there.',
  connection_lost: () => 'The connection to the meeting was lost.',
  unreachable: () => 'The meeting could not be reached. Check your connection and try again.',
  error: () => 'The meeting stopped because of an unexpected problem.',
};

const state = {
  location: readLocation(),
  api: null,
  welcome: null,
  media: { stream: null, camera: false, microphone: false, error: null },
  /** The meeting's AudioContext, created in a click handler (browsers start it only after one). */
  audio: null,
  picker: null,
  speakerId: null,
  stopMeter: () => {},
  uploading: false,
};

function ensureAudio() {
  state.audio ??= MeetingAudio.create();
  state.audio?.resume();
}

function personaFirstName() {
  return firstName(state.welcome?.persona?.name) || 'the persona';
}

function fail(message) {
  setText('error-message', message);
  showScreen('error');
}

/** Consent is asked only when the scenario records, asks for consent, and recording can happen. */
/**
 * The camera or microphone, or else the persona's voice from the service (the recording's Web
 * Audio mix carries it), so a participant without devices is recorded too.
 */
function somethingToRecord() {
  return Boolean(state.media.stream || (state.welcome.speech?.synthesis && MeetingAudio.canRecordMix));
}

function consentStepNeeded() {
  const recording = state.welcome.recording;
  return Boolean(
    recording?.enabled && recording.consent_required && somethingToRecord() && recordingSupported(),
  );
}

// Welcome -----------------------------------------------------------------------------------------

function renderWelcome() {
  const { scenario, persona, meeting, recording } = state.welcome;
  document.title = scenario?.name ? `${scenario.name} · Meeting room` : 'Meeting room';
  setText('welcome-title', scenario?.name ?? 'Meeting');
  setText('welcome-description', scenario?.description ?? '');
  byId('welcome-description').hidden = !scenario?.description;
  const personaBlock = byId('welcome-avatar').closest('.persona');
  if (persona) {
    setText('welcome-persona-name', persona.name);
    setText('welcome-persona-title', persona.job_title ?? '');
    const fallback = byId('welcome-initials');
    fallback.textContent = initials(persona.name);
    setImage(byId('welcome-avatar'), persona.avatar_url, '', fallback);
  } else {
    personaBlock.hidden = true;
  }
  const minutes = (meeting?.duration_limit_seconds ?? 0) / 60;
  byId('welcome-duration').closest('li').hidden = !minutes;
  setText('welcome-duration', formatMinutes(minutes));
  const fact = byId('welcome-recording-fact');
  fact.hidden = !recording?.enabled;
  fact.querySelector('span').textContent = recording?.consent_required
    ? 'Recorded only with your consent'
    : 'Your camera and microphone are recorded';
  byId('welcome-name-field').hidden = Boolean(meeting?.person_name);
  for (const element of document.querySelectorAll('[data-bind="persona-first-name"]')) {
    element.textContent = personaFirstName();
  }
  const consentVisible = Boolean(recording?.enabled && recording.consent_required);
  for (const step of document.querySelectorAll('.steps [data-step="consent"]')) step.hidden = !consentVisible;
  showScreen('welcome');
}

// Devices ---------------------------------------------------------------------------------------

function devicesNextLabel() {
  return consentStepNeeded() ? 'Continue' : 'Join meeting';
}

/** What will hear the participant, said before joining without promising more than is known. */
function voiceInputSentence() {
  if (state.welcome.speech?.recognition && typeof AudioWorkletNode !== 'undefined') {
    return 'The service will recognise your voice; you can also type.';
  }
  if (Listener.supported) return 'Your browser will try to recognise your voice; you can always type.';
  return 'This browser cannot recognise speech, so you will type your replies.';
}

/** Microphone and speaker choice before joining (the speaker only matters for the service's audio). */
function showDevicePickers() {
  const stream = state.media.stream;
  const speakerChoice = Boolean(
    state.welcome.speech?.synthesis && state.audio && MeetingAudio.speakerChoiceSupported,
  );
  state.picker?.dispose();
  state.picker = new DevicePicker(
    {
      microphone: byId('devices-mic'),
      microphoneField: byId('devices-mic-field'),
      speaker: byId('devices-speaker'),
      speakerField: byId('devices-speaker-field'),
    },
    {
      onMicrophone: state.media.microphone
        ? async (deviceId) => {
            await switchMicrophone(stream, deviceId);
            state.stopMeter();
            state.stopMeter = meterLevel(stream, byId('mic-level'));
          }
        : null,
      onSpeaker: speakerChoice
        ? async (deviceId) => {
            await state.audio.setSpeaker(deviceId);
            state.speakerId = deviceId;
          }
        : null,
    },
  );
  state.picker.refresh({ microphone: microphoneDeviceId(stream) });
}

async function allowDevices() {
  ensureAudio();
  const allow = byId('devices-allow');
  const status = byId('devices-status');
  allow.disabled = true;
  allow.textContent = 'Waiting for permission…';
  const result = await requestMedia();
  state.media = {
    stream: result.stream,
    camera: result.camera ?? false,
    microphone: result.microphone ?? false,
    error: result.error,
  };
  allow.hidden = true;
  byId('devices-skip').hidden = true;
  const next = byId('devices-continue');
  next.hidden = false;
  status.hidden = false;
  if (result.stream) {
    const preview = byId('preview');
    if (result.camera) {
      byId('preview-video').srcObject = result.stream;
      preview.dataset.state = 'live';
    }
    state.stopMeter = meterLevel(result.stream, byId('mic-level'));
    showDevicePickers();
    status.className = 'notice notice--ok';
    const voice = voiceInputSentence();
    status.textContent = result.camera
      ? `Camera and microphone are ready. ${voice}`
      : `Microphone is ready (no camera found). ${voice}`;
  } else {
    status.className = 'notice notice--warn';
    status.textContent = result.error?.message ?? 'Camera and microphone are not available.';
    // Let them try again after fixing the site settings.
    allow.hidden = false;
    allow.disabled = false;
    allow.textContent = 'Try again';
    allow.classList.remove('button--primary');
  }
  next.textContent = result.stream ? devicesNextLabel() : 'Continue by typing';
  next.focus();
}

function afterDevices() {
  if (consentStepNeeded()) {
    showScreen('consent');
    return;
  }
  const recording = state.welcome.recording;
  // No consent asked: record when the scenario records and this browser can.
  const record = Boolean(
    recording?.enabled && !recording.consent_required && somethingToRecord() && recordingSupported(),
  );
  join({ consent: false, record });
}

// Meeting and the end ------------------------------------------------------------------------------------

async function join({ consent, record }) {
  // Called from a click: the AudioContext may start here.
  ensureAudio();
  state.stopMeter();
  state.picker?.dispose();
  showScreen('meeting');
  const meeting = new Meeting({
    api: state.api,
    welcome: state.welcome,
    stream: state.media.stream,
    camera: state.media.camera,
    microphone: state.media.microphone,
    audio: state.audio,
    speakerId: state.speakerId,
    consent,
    record,
    name: byId('welcome-name').value.trim().slice(0, 200),
  });
  const outcome = await meeting.start();
  await showEnded(outcome);
}

async function showEnded(outcome) {
  if (outcome.reason === 'unreachable') {
    stopStream(state.media.stream);
    fail(END_REASONS.unreachable());
    return;
  }
  const describe = END_REASONS[outcome.reason];
  setText('ended-reason', describe ? describe(personaFirstName()) : 'The meeting is over.');
  setText('ended-duration', outcome.durationSeconds != null ? formatClock(outcome.durationSeconds) : '–');
  setText('ended-turns', String(outcome.turns ?? 0));
  byId('ended-turns').closest('div').hidden = outcome.turns == null;
  showScreen('ended');
  // Goals stay hidden during the call (spec rule 10): results are asked for only now.
  if (state.welcome?.controls?.share_results_with_participant) void showResults(state.api);
  void showFeedback(state.api);
  if (outcome.media) await upload(outcome);
  else if (outcome.recordingExpected) {
    byId('upload').hidden = false;
    byId('upload-progress').hidden = true;
    setText('upload-status', 'Nothing was recorded, so there is no recording to upload.');
  }
  stopStream(state.media.stream);
  if (state.location.mode === 'meeting') await showTranscript();
}

async function upload(outcome) {
  const box = byId('upload');
  const progress = byId('upload-progress');
  box.hidden = false;
  state.uploading = true;
  const say = (text) => setText('upload-status', text);
  try {
    if (outcome.thumbnail) {
      say('Saving a still image of your camera…');
      await state.api.uploadThumbnail(outcome.thumbnail).catch(() => {});
    }
    say('Uploading your recording…');
    const stored = await state.api.uploadRecording(outcome.media, outcome.media.type, (fraction) => {
      progress.value = Math.round(fraction * 100);
      say(`Uploading your recording… ${Math.round(fraction * 100)}%`);
    });
    if (!(stored?.size > 0)) throw new Error('the service stored nothing');
    progress.value = 100;
    const length = outcome.mediaDurationMs >= 1000 ? ` (${formatClock(outcome.mediaDurationMs / 1000)})` : '';
    say(
      outcome.mediaTruncated
        ? `Recording saved${length}. It reached the size limit, so the end was cut.`
        : `Recording saved${length}.`,
    );
  } catch (error) {
    say(`The recording could not be uploaded: ${error.message}`);
    progress.hidden = true;
  } finally {
    state.uploading = false;
  }
}

async function showTranscript() {
  try {
    const transcript = await state.api.transcript();
    const list = byId('ended-transcript');
    list.replaceChildren();
    const agent = state.welcome?.persona?.name ?? 'Persona';
    for (const sentence of transcript.sentences ?? []) {
      const user = sentence.speaker === 'user';
      const item = document.createElement('li');
      item.className = `line line--${user ? 'user' : 'agent'}`;
      const who = document.createElement('span');
      who.className = 'line__speaker';
      who.textContent = `${user ? 'You' : agent} · ${sentence.start_duration ?? ''}`;
      const text = document.createElement('span');
      text.className = 'line__text';
      text.textContent = sentence.message;
      item.append(who, text);
      list.append(item);
    }
    byId('ended-transcript-wrap').hidden = list.children.length === 0;
    byId('ended-card').classList.add('card--wide');
  } catch {
    // The outcome is still shown; the transcript is optional here.
  }
}

function showAlreadyEnded() {
  const meeting = state.welcome.meeting;
  const started = meeting.started_at ? Date.parse(meeting.started_at) : 0;
  const ended = meeting.ended_at ? Date.parse(meeting.ended_at) : 0;
  byId('ended-title').textContent = 'This meeting has ended';
  byId('ended-close-hint').hidden = true;
  showEnded({
    reason: meeting.end_reason,
    durationSeconds: started && ended ? Math.round((ended - started) / 1000) : null,
    turns: null,
  }).then(() => {
    // The full page loads the transcript itself; the room shows it too when opened after the end.
    if (state.location.mode !== 'meeting') return showTranscript();
  });
}

// Start-up --------------------------------------------------------------------------------------

async function main() {
  const { meetingId, token, mode } = state.location;
  if (mode === 'meeting') {
    document.body.classList.add('page--meeting');
    byId('brandbar').hidden = false;
  }
  byId('error-retry').addEventListener('click', () => window.location.reload());
  if (!meetingId || !token) {
    fail('This meeting link is incomplete. Open the full link you were given.');
    return;
  }
  state.api = new RoomApi({ meetingId, token });
  try {
    state.welcome = await state.api.welcome();
  } catch (error) {
    fail(
      error.status === 404
        ? 'This meeting link is not valid. Ask the person who invited you for a new one.'
        : 'The meeting could not be loaded. Check your connection and try again.',
    );
    return;
  }
  if (state.welcome.meeting?.status === 'ended') {
    showAlreadyEnded();
    return;
  }
  renderWelcome();
  byId('welcome-continue').addEventListener('click', () => showScreen('devices'));
  byId('devices-allow').addEventListener('click', allowDevices);
  byId('devices-skip').addEventListener('click', afterDevices);
  byId('devices-continue').addEventListener('click', afterDevices);
  byId('consent-accept').addEventListener('click', () => {
    if (!byId('consent-check').checked) {
      const error = byId('consent-error');
      error.textContent = 'Tick the box to agree, or join without recording.';
      error.hidden = false;
      byId('consent-check').focus();
      return;
    }
    join({ consent: true, record: true });
  });
  byId('consent-check').addEventListener('change', () => {
    byId('consent-error').hidden = true;
  });
  byId('consent-decline').addEventListener('click', () => join({ consent: false, record: false }));
  window.addEventListener('beforeunload', (event) => {
    if (!state.uploading) return;
    event.preventDefault();
    event.returnValue = '';
  });
}

main();
