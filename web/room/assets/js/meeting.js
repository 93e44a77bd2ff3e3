// The live meeting: connection, the persona's voice, the participant's voice and keyboard, the
// transcript, the timer and the recording. Resolves `done` with how the meeting ended.

import { RoomConnection } from './connection.js';
import { byId, firstName, formatClock, setImage, setText } from './dom.js';
import { Listener } from './listener.js';
import { captureFrame, Recording } from './recorder.js';
import { TranscriptView } from './transcript.js';
import { loadVoices, pickVoice, Speaker } from './voice.js';

const INTERIM_INTERVAL_MS = 700;
const THUMBNAIL_AFTER_MS = 4000;
const WARN_REMAINING_S = 60;

function toolLabel(name) {
  if (name === 'web_search') return 'Looking something up…';
  if (name === 'end_call') return 'Wrapping up…';
  return 'Working on it…';
}

export class Meeting {
  /**
   * @param {object} options
   * @param {import('./api.js').RoomApi} options.api
   * @param {object} options.welcome       welcome data
   * @param {MediaStream | null} options.stream
   * @param {boolean} options.camera
   * @param {boolean} options.microphone
   * @param {boolean} options.consent       recording consent given
   * @param {boolean} options.record        this client records and uploads
   * @param {string} options.name           participant name for `join` (may be empty)
   */
  constructor(options) {
    this.options = options;
    this.api = options.api;
    this.welcome = options.welcome;
    const persona = this.welcome.persona;
    this.personaName = persona?.name || 'The persona';
    this.personaFirst = firstName(persona?.name) || 'The persona';
    this.language = persona?.voice?.language || document.documentElement.lang || 'en-US';
    this.transcript = new TranscriptView(
      {
        list: byId('transcript'),
        scroller: byId('transcript-scroll'),
        draft: byId('draft'),
        draftSpeaker: byId('draft-speaker'),
        draftText: byId('draft-text'),
      },
      { agent: this.personaName, user: 'You' },
    );
    this.startedAt = 0;
    this.endsAt = 0;
    this.skew = 0;
    this.limitSeconds = this.welcome.meeting?.duration_limit_seconds ?? 0;
    this.timer = 0;
    this.warned = false;
    this.streamingTurn = null;
    this.recording = null;
    this.thumbnail = null;
    this.thumbnailTimer = 0;
    this.typingStartedAt = 0;
    this.lastInterimAt = 0;
    this.lastInterim = '';
    this.clientCounter = 0;
    this.ended = false;
    this.micOn = options.microphone;
    /** Why voice input is off, shown under the transcript until something replaces it. */
    this.voiceNotice = '';
    this.voiceUnavailable = null;
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  async start() {
    this.#renderChrome();
    await this.#setUpVoice();
    this.#setUpListener();
    this.#bindControls();
    const client = {
      user_agent: navigator.userAgent.slice(0, 300),
      speech_recognition: Listener.supported,
      speech_synthesis: this.speaker.available,
      camera: this.options.camera,
      microphone: this.options.microphone,
      embedded: window.self !== window.top,
    };
    const join = { consent: { recording: this.options.consent }, recording: this.options.record, client };
    if (this.options.name) join.name = this.options.name;
    this.connection = new RoomConnection(this.api.liveUrl(this.welcome.live_path), join);
    this.#bindConnection();
    this.connection.open();
    return this.done;
  }

  // Set-up ---------------------------------------------------------------------------------

  #renderChrome() {
    const { scenario, persona, controls } = this.welcome;
    setText('meeting-title', scenario?.name ?? 'Meeting');
    setText('meeting-persona-name', this.personaName);
    setText('meeting-persona-title', persona?.job_title ?? '');
    setImage(byId('meeting-avatar'), persona?.avatar_url, '');
    byId('timer').hidden = controls?.show_timer === false;
    // The scenario may keep the participant from ending the call (it ends by time or by the persona).
    byId('leave').hidden = controls?.allow_participant_end === false;
    setText('timer-limit', this.limitSeconds ? formatClock(this.limitSeconds) : '--:--');
    const selfTile = byId('self-tile');
    const video = byId('self-video');
    if (this.options.stream && this.options.camera) {
      video.srcObject = this.options.stream;
      selfTile.dataset.camera = 'on';
    }
    byId('rec-indicator').hidden = true;
    this.#personaState('idle', 'Joining…');
  }

  async #setUpVoice() {
    const synth = window.speechSynthesis;
    const voices = synth ? await loadVoices(synth) : [];
    const persona = this.welcome.persona;
    const voice = pickVoice(voices, {
      hints: persona?.voice?.browser_voice_hints ?? [],
      language: this.language,
      gender: persona?.gender ?? persona?.voice?.gender ?? null,
    });
    this.speaker = new Speaker({
      voice,
      language: this.language,
      gender: persona?.gender ?? null,
      enabled: voices.length > 0,
    });
    this.speaker.addEventListener('speaking', () => {
      this.listener?.pause();
      this.#personaState('speaking', 'Speaking');
    });
    this.speaker.addEventListener('idle', () => {
      if (this.ended) return;
      this.listener?.resume();
      this.#personaState('idle', this.streamingTurn ? 'Speaking' : 'Listening');
    });
  }

  #setUpListener() {
    const micToggle = byId('mic-toggle');
    if (!this.options.microphone) {
      micToggle.disabled = true;
      this.#micButton(false);
      this.#notice('Microphone not available: type your messages below.');
      return;
    }
    // The button mutes the microphone (also in the recording) even where speech is not recognised.
    micToggle.disabled = false;
    this.#micButton(true);
    if (!Listener.supported) {
      this.#notice('Voice input is not available in this browser: type your messages below.');
      return;
    }
    this.listener = new Listener({ language: this.language });
    this.listener.addEventListener('interim', (event) => this.#interim(event.detail.text));
    this.listener.addEventListener('final', (event) => this.#final(event.detail));
    this.listener.addEventListener('state', (event) => {
      const { state, message } = event.detail;
      if (state === 'unavailable') {
        this.voiceUnavailable = message;
        this.#notice(message);
      } else if (state === 'listening') this.#notice('Listening: speak, or type below.');
    });
  }

  #bindControls() {
    const form = byId('composer');
    const input = byId('message');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#sendTyped();
    });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.#sendTyped();
      }
    });
    input.addEventListener('input', () => {
      if (!this.typingStartedAt && input.value.trim()) this.typingStartedAt = Date.now();
      if (!input.value.trim()) this.typingStartedAt = 0;
      input.style.height = 'auto';
      input.style.height = `${Math.min(140, input.scrollHeight + 2)}px`;
    });
    byId('mic-toggle').addEventListener('click', () => this.#toggleMic());
    const dialog = byId('leave-dialog');
    byId('leave').addEventListener('click', () => {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else this.leave();
    });
    dialog.addEventListener('close', () => {
      if (dialog.returnValue === 'leave') this.leave();
    });
  }

  #bindConnection() {
    const on = (type, handler) => this.connection.addEventListener(type, (event) => handler(event.detail));
    on('joined', (message) => this.#joined(message));
    on('agent.delta', (message) => this.#delta(message));
    on('agent.message', (message) => this.#agentMessage(message));
    on('filler', (message) => this.#filler(message));
    on('tool', (message) => this.#tool(message));
    on('ended', (message) => this.#end(message.reason, message));
    on('error', (message) => this.#error(message));
    on('connection', (state) => this.#connectionState(state));
    on('closed', (detail) => {
      if (!this.ended) this.#end(detail.reason ?? 'connection_lost', {});
    });
  }

  // Server messages --------------------------------------------------------------------------

  #joined(message) {
    const meeting = message.meeting ?? {};
    this.skew = message.server_time ? Date.parse(message.server_time) - Date.now() : 0;
    this.startedAt = meeting.started_at ? Date.parse(meeting.started_at) : Date.now() + this.skew;
    this.endsAt = meeting.ends_at ? Date.parse(meeting.ends_at) : 0;
    if (meeting.duration_limit_seconds) this.limitSeconds = meeting.duration_limit_seconds;
    setText('timer-limit', this.limitSeconds ? formatClock(this.limitSeconds) : '--:--');
    if (message.resumed) {
      this.transcript.clear();
      this.transcript.sentences(message.transcript ?? []);
      this.transcript.note('Reconnected.');
    }
    this.#startTimer();
    this.#startRecording();
    if (this.micOn) this.listener?.start();
    this.#personaState('idle', 'Listening');
    if (!message.resumed) byId('message').focus();
  }

  #delta(message) {
    this.#clearFiller();
    this.streamingTurn = message.turn_id;
    this.transcript.delta(message.turn_id, message.text);
    this.speaker.push(message.turn_id, message.text);
    this.#personaState('speaking', 'Speaking');
  }

  #agentMessage(message) {
    this.#clearFiller();
    if (this.streamingTurn === message.turn_id) this.streamingTurn = null;
    this.transcript.agentMessage(message.turn_id, message.text ?? '', Boolean(message.interrupted));
    this.speaker.finish(message.turn_id, message.text ?? '', Boolean(message.interrupted));
    if (!this.speaker.speaking) this.#personaState('idle', 'Listening');
  }

  #filler(message) {
    setText('filler', `${this.personaFirst} is thinking…`);
    this.#personaState('thinking', 'Thinking…');
    if (message.text) this.speaker.sayOnce(message.text);
  }

  #tool(message) {
    if (message.status === 'started') {
      setText('filler', toolLabel(message.name));
      this.#personaState('thinking', 'Working…');
    } else {
      this.#clearFiller();
    }
  }

  #error(message) {
    switch (message.code) {
      case 'agent_unavailable':
        this.#clearFiller();
        this.transcript.note(
          `${this.personaFirst} could not answer just now. Say it again or try rephrasing.`,
        );
        this.#personaState('idle', 'Listening');
        break;
      case 'rate_limited':
        this.transcript.note('You are sending messages too quickly. Wait a moment.');
        break;
      case 'replaced':
        this.#end('replaced', {});
        break;
      default:
        if (message.fatal) this.#end('error', { message: message.message });
    }
  }

  #connectionState(state) {
    if (state.state === 'reconnecting' && state.attempt === 1) {
      this.transcript.note('Connection lost. Reconnecting…');
      this.#personaState('idle', 'Reconnecting…');
      this.listener?.pause();
    }
    if (state.state === 'connected') this.listener?.resume();
  }

  // Participant input --------------------------------------------------------------------------

  #meetingMs(epochMs) {
    if (!this.startedAt) return undefined;
    return Math.max(0, Math.round(epochMs + this.skew - this.startedAt));
  }

  #utterance(text, startedAt, endedAt, input) {
    this.clientCounter += 1;
    const id = `c${this.clientCounter}-${Date.now().toString(36)}`;
    // `input` tells the analysis whether this was spoken or typed (speech rates count voice only).
    const frame = { type: 'utterance', text, final: true, id, input };
    const start = this.#meetingMs(startedAt);
    const end = this.#meetingMs(endedAt);
    if (start !== undefined && end !== undefined && end >= start) {
      frame.start_ms = start;
      frame.end_ms = end;
    }
    if (!this.connection.send(frame)) return false;
    // Talking over the persona cuts its reply (the server interrupts the turn as well).
    this.speaker.cancel();
    this.transcript.userLine(text, id);
    this.#personaState('thinking', 'Thinking…');
    return true;
  }

  #sendTyped() {
    const input = byId('message');
    const text = input.value.trim().slice(0, 4000);
    if (!text || this.ended) return;
    const now = Date.now();
    if (this.#utterance(text, this.typingStartedAt || now, now, 'typed')) {
      input.value = '';
      input.style.height = 'auto';
      this.typingStartedAt = 0;
      setText('voice-status', this.voiceNotice);
    } else {
      setText('voice-status', 'Not connected right now. Your message is kept: send it again in a moment.');
    }
  }

  #interim(text) {
    byId('interim').textContent = text ? `“${text}”` : '';
    const now = Date.now();
    if (!text || text === this.lastInterim || now - this.lastInterimAt < INTERIM_INTERVAL_MS) return;
    this.lastInterim = text;
    this.lastInterimAt = now;
    this.connection.send({ type: 'utterance', text: text.slice(0, 4000), final: false });
  }

  #final({ text, startedAt, endedAt }) {
    byId('interim').textContent = '';
    this.lastInterim = '';
    if (!this.ended) this.#utterance(text.slice(0, 4000), startedAt, endedAt, 'voice');
  }

  #toggleMic() {
    this.micOn = !this.micOn;
    for (const track of this.options.stream?.getAudioTracks() ?? []) track.enabled = this.micOn;
    this.#micButton(this.micOn);
    if (this.micOn) {
      this.listener?.start();
      if (this.speaker.speaking) this.listener?.pause();
      this.#notice(this.voiceUnavailable ?? '');
    } else {
      this.listener?.stop();
      byId('interim').textContent = '';
      this.#notice('Microphone muted: type your messages below.');
    }
  }

  #notice(text) {
    this.voiceNotice = text;
    setText('voice-status', text);
  }

  #micButton(on) {
    const button = byId('mic-toggle');
    button.setAttribute('aria-pressed', String(on));
    setText('mic-toggle-label', on ? 'Microphone on (select to mute)' : 'Microphone off');
    button.title = on ? 'Mute microphone' : 'Unmute microphone';
  }

  // Persona tile, timer, recording -----------------------------------------------------------------------

  #personaState(state, label) {
    byId('persona-tile').dataset.state = state;
    setText('persona-state', label);
  }

  #clearFiller() {
    setText('filler', '');
  }

  #startTimer() {
    clearInterval(this.timer);
    const tick = () => {
      const elapsed = (Date.now() + this.skew - this.startedAt) / 1000;
      setText('timer-elapsed', formatClock(elapsed));
      if (!this.limitSeconds) return;
      const fraction = Math.min(1, elapsed / this.limitSeconds);
      byId('timer-fill').style.width = `${(fraction * 100).toFixed(1)}%`;
      const remaining = this.limitSeconds - elapsed;
      const warn = remaining <= WARN_REMAINING_S;
      byId('timer').dataset.warn = String(warn);
      if (warn && !this.warned && remaining > 0) {
        this.warned = true;
        this.transcript.note('About one minute left.');
      }
    };
    tick();
    this.timer = window.setInterval(tick, 500);
  }

  #startRecording() {
    if (!this.options.record || this.recording || !this.options.stream) return;
    try {
      this.recording = new Recording(this.options.stream, { maxBytes: this.welcome.recording?.max_bytes });
      this.recording.start();
      byId('rec-indicator').hidden = false;
      if (this.options.camera) {
        this.thumbnailTimer = window.setTimeout(async () => {
          this.thumbnail = (await captureFrame(byId('self-video'))) ?? this.thumbnail;
        }, THUMBNAIL_AFTER_MS);
      }
    } catch {
      this.recording = null;
      this.transcript.note('Recording could not start in this browser; the meeting continues without it.');
    }
  }

  /** The participant leaves: the server ends the meeting and answers `ended`. */
  leave() {
    if (this.ended) return;
    this.speaker.cancel();
    this.connection.leave();
  }

  async #end(reason, details) {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    clearTimeout(this.thumbnailTimer);
    this.listener?.stop();
    this.#clearFiller();
    if (reason === 'participant_left') this.speaker.cancel();
    byId('rec-indicator').hidden = true;
    let media = null;
    if (this.recording) {
      if (!this.thumbnail && this.options.camera) this.thumbnail = await captureFrame(byId('self-video'));
      media = await this.recording.stop();
    }
    this.resolveDone({
      reason,
      message: details.message ?? null,
      durationSeconds: details.duration_seconds ?? null,
      turns: this.transcript.userLines,
      media,
      mediaTruncated: Boolean(this.recording?.truncated),
      thumbnail: this.thumbnail,
    });
  }
}
