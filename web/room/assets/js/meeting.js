// The live meeting: connection, the persona's voice, the participant's voice and keyboard, the
// transcript, the status line, the timer and the recording. Resolves `done` with how the meeting
// ended. The voice protocol is in docs/realtime.md ("Voice").

import { ActivityIndicator } from './activity.js';
import { Composer } from './composer.js';
import { RoomConnection } from './connection.js';
import { MeetingControls } from './controls.js';
import { exposeDiagnostics } from './diagnostics.js';
import { byId, firstName } from './dom.js';
import { Listener } from './listener.js';
import { renderMeetingChrome } from './meeting-chrome.js';
import { MeetingRecording } from './meeting-recording.js';
import { PersonaVoice } from './persona-voice.js';
import { StatusLine } from './status.js';
import { MeetingTimer } from './timer.js';
import { TranscriptView } from './transcript.js';
import { UtteranceSender } from './utterances.js';
import { VoiceInput } from './voice-input.js';

/** With service audio, "thinking" ends with the first audio; this long after the text at most. */
const AUDIO_GRACE_MS = 3000;

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
   * @param {import('./audio/graph.js').MeetingAudio | null} options.audio  created in a click handler
   * @param {string | null} options.speakerId  the speaker chosen before joining
   * @param {boolean} options.consent       recording consent given
   * @param {boolean} options.record        this client records and uploads
   * @param {string} options.name           participant name for `join` (may be empty)
   */
  constructor(options) {
    this.options = options;
    this.api = options.api;
    this.welcome = options.welcome;
    this.audio = options.audio;
    const persona = this.welcome.persona;
    this.personaName = persona?.name || 'The persona';
    this.personaFirst = firstName(persona?.name) || 'The persona';
    this.language = persona?.voice?.language || document.documentElement.lang || 'en-US';
    this.transcript = new TranscriptView(
      {
        list: byId('transcript'),
        scroller: byId('transcript-scroll'),
        content: byId('transcript-content'),
        draft: byId('draft'),
        draftSpeaker: byId('draft-speaker'),
        draftText: byId('draft-text'),
        userDraft: byId('user-draft'),
        userDraftText: byId('user-draft-text'),
        jump: byId('transcript-jump'),
      },
      { agent: this.personaName, user: 'You' },
    );
    this.status = new StatusLine(byId('voice-status'));
    this.activity = new ActivityIndicator(
      { tile: byId('persona-tile'), label: byId('persona-state'), announce: byId('filler') },
      { personaFirst: this.personaFirst, level: this.audio ? () => this.audio.level() : null },
    );
    this.startedAt = 0;
    this.skew = 0;
    this.limitSeconds = this.welcome.meeting?.duration_limit_seconds ?? 0;
    this.timer = new MeetingTimer({ onLastMinute: () => this.transcript.note('About one minute left.') });
    this.recording = null;
    this.ended = false;
    this.joinedOnce = false;
    /** Why the room is reconnecting, said again after the resume redraws the transcript. */
    this.reconnectNote = null;
    /** The `agent.audio` whose binary frame comes next. */
    this.pendingAudio = null;
    this.audioGraceTimer = 0;
    /** `start_ms` of the last `speech.started` (the utterance now being heard). */
    this.speechStartMs = undefined;
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  async start() {
    renderMeetingChrome({
      welcome: this.welcome,
      personaName: this.personaName,
      limitSeconds: this.limitSeconds,
      stream: this.options.stream,
      camera: this.options.camera,
    });
    await this.#setUpPersonaVoice();
    this.composer = new Composer({ form: byId('composer'), input: byId('message') }, (text, startedAt) =>
      this.#sendTyped(text, startedAt),
    );
    const speech = this.welcome.speech ?? null;
    // The persona's audio is asked for when the service synthesises and this browser can play it.
    this.askedForAudio = Boolean(speech?.synthesis) && this.persona.canPlayServiceAudio;
    const client = {
      user_agent: navigator.userAgent.slice(0, 300),
      speech_recognition: Listener.supported,
      speech_synthesis: this.speaker.available,
      web_audio: Boolean(this.audio),
      camera: this.options.camera,
      microphone: this.options.microphone,
      embedded: window.self !== window.top,
    };
    const join = { consent: { recording: this.options.consent }, recording: this.options.record, client };
    if (this.askedForAudio) join.audio = { output: true };
    if (this.options.name) join.name = this.options.name;
    this.connection = new RoomConnection(this.api.liveUrl(this.welcome.live_path), join);
    this.utterances = new UtteranceSender({
      connection: this.connection,
      meetingMs: (epochMs) => this.#meetingMs(epochMs),
      sent: (text, id) => {
        // Talking over the persona cuts its reply at once (the server interrupts the turn as well).
        this.persona.cancel();
        this.transcript.userLine(text, id);
        this.activity.think();
      },
    });
    this.voiceInput = new VoiceInput({
      connection: this.connection,
      audio: this.audio,
      stream: this.options.microphone ? this.options.stream : null,
      language: this.language,
      status: this.status,
      meetingMs: (epochMs) => this.#meetingMs(epochMs),
    });
    this.#bindVoiceInput();
    this.controls = new MeetingControls(this);
    this.#bindConnection();
    exposeDiagnostics(this);
    this.connection.open();
    return this.done;
  }

  // Set-up ---------------------------------------------------------------------------------

  async #setUpPersonaVoice() {
    this.persona = await PersonaVoice.create({
      persona: this.welcome.persona,
      language: this.language,
      audio: this.audio,
    });
    this.speaker = this.persona.speaker;
    this.playback = this.persona.playback;
    const speaking = (on) => {
      if (on) this.#stopThinking();
      this.activity.set({ personaSpeaking: on });
      this.voiceInput?.personaSpeaking(on, { browserSynthesis: this.persona.mode === 'browser' });
    };
    this.persona.addEventListener('speaking', () => speaking(true));
    this.persona.addEventListener('idle', () => speaking(false));
  }

  #bindVoiceInput() {
    // The browser's recognition (the service's arrives as server messages).
    this.voiceInput.addEventListener('interim', (event) => this.#browserInterim(event.detail.text));
    this.voiceInput.addEventListener('final', (event) => this.#browserFinal(event.detail));
    this.voiceInput.addEventListener('speech', (event) =>
      this.activity.set({ userSpeaking: event.detail.speaking }),
    );
  }

  #bindConnection() {
    const on = (type, handler) => this.connection.addEventListener(type, (event) => handler(event.detail));
    on('joined', (message) => this.#joined(message));
    on('agent.delta', (message) => this.#delta(message));
    on('agent.message', (message) => this.#agentMessage(message));
    on('agent.audio', (message) => this.#agentAudio(message));
    on('binary', (data) => this.#binary(data));
    on('speech.started', (message) => this.#speechStarted(message));
    on('transcript.interim', (message) => this.transcript.userDraft(message.text ?? ''));
    on('speech.stopped', (message) => this.#speechStopped(message));
    on('transcript.sentence', (message) => this.#stored(message));
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
    if (meeting.duration_limit_seconds) this.limitSeconds = meeting.duration_limit_seconds;
    // Every join (a resume too) brings the server's clock again.
    this.timer.start({ startedAt: this.startedAt, skew: this.skew, limitSeconds: this.limitSeconds });
    if (message.resumed) {
      this.transcript.clear();
      this.transcript.sentences(message.transcript ?? []);
      // What the service had not stored yet is shown again, and sent again below.
      for (const [id, frame] of this.utterances.pending) this.transcript.userLine(frame.text, id);
      // The stored transcript replaced the lines, and with them why the room reconnected: say it again.
      if (this.reconnectNote) this.transcript.note(this.reconnectNote);
      this.transcript.note('Reconnected.');
      this.reconnectNote = null;
    }
    this.utterances.resend();
    this.status.setConnection('connected');
    if (!this.joinedOnce) {
      this.joinedOnce = true;
      const speech = message.speech ?? this.welcome.speech ?? null;
      this.persona.useService(this.askedForAudio && Boolean(speech?.synthesis));
      this.audio?.setMicrophone(this.options.microphone ? this.options.stream : null);
      this.voiceInput.begin({ recognition: speech?.recognition ?? null });
      this.#startRecording();
      this.controls.joined();
      this.composer.focus();
    }
    this.voiceInput.connectionChanged(true);
    this.activity.set({ joined: true });
  }

  #delta(message) {
    this.transcript.delta(message.turn_id, message.text);
    this.persona.delta(message.turn_id, message.text);
    if (this.persona.mode !== 'service') this.#stopThinking();
    // Without any voice, the persona "speaks" while its text streams in.
    if (this.persona.mode === 'none') this.activity.set({ personaSpeaking: true });
  }

  #agentMessage(message) {
    const interrupted = Boolean(message.interrupted);
    this.transcript.agentMessage(message.turn_id, message.text ?? '', interrupted);
    this.persona.finish(message.turn_id, message.text ?? '', interrupted);
    if (this.persona.mode === 'none') this.activity.set({ personaSpeaking: false });
    if (this.persona.mode === 'service' && !interrupted && !this.persona.speaking) {
      // The audio of a short reply may still be on its way.
      clearTimeout(this.audioGraceTimer);
      this.audioGraceTimer = window.setTimeout(() => this.#stopThinking(), AUDIO_GRACE_MS);
    } else this.#stopThinking();
  }

  #agentAudio(message) {
    this.pendingAudio = message;
  }

  #binary(data) {
    const header = this.pendingAudio;
    this.pendingAudio = null;
    if (header) this.persona.audio(header, data);
  }

  #speechStarted(message) {
    this.speechStartMs = message.start_ms;
    this.activity.set({ userSpeaking: true });
    this.transcript.userDraft('…');
  }

  #speechStopped(message) {
    const text = (message.text ?? '').trim();
    // Recognition takes time: the final of an utterance may come after the next one began. It
    // is then shown, but the participant is still talking (their draft and "listening" stay).
    if (message.start_ms !== this.speechStartMs) {
      if (text) this.transcript.userLine(text, undefined, { keepDraft: true });
      return;
    }
    this.activity.set({ userSpeaking: false });
    if (!text) {
      this.transcript.userDraft('');
      return;
    }
    this.transcript.userLine(text);
    this.activity.think();
  }

  #filler(message) {
    this.activity.think();
    this.persona.filler(message.text);
  }

  #tool(message) {
    if (message.status === 'started') this.activity.think(toolLabel(message.name));
  }

  #stopThinking() {
    clearTimeout(this.audioGraceTimer);
    this.activity.set({ thinking: false });
  }

  #error(message) {
    switch (message.code) {
      case 'agent_unavailable':
        this.#stopThinking();
        this.transcript.note(
          `${this.personaFirst} could not answer just now. Say it again or try rephrasing.`,
        );
        break;
      case 'storage_unavailable':
        // The database is away: the service says what that means for this utterance or join.
        this.#stopThinking();
        this.transcript.note(message.message || 'The meeting is paused for a moment.');
        break;
      case 'rate_limited':
        this.transcript.note('You are sending messages too quickly. Wait a moment.');
        break;
      case 'speech_unavailable':
        // One sentence could not be synthesised (its text is shown anyway) or one utterance not
        // recognised: the voice stays on; the participant hears why in the service's words.
        this.status.flash(message.message || 'Voice is not available for a moment.');
        break;
      case 'replaced':
        this.#end('replaced', {});
        break;
      default:
        if (message.fatal) this.#end('error', { message: message.message });
    }
  }

  #connectionState(state) {
    // A header whose frame was lost with the connection must not claim the next frame.
    this.pendingAudio = null;
    if (state.state === 'reconnecting' && state.attempt === 1) {
      this.reconnectNote = state.restart
        ? 'The service is restarting. Reconnecting…'
        : 'Connection lost. Reconnecting…';
      this.transcript.note(this.reconnectNote);
      this.status.setConnection('reconnecting');
      this.voiceInput.connectionChanged(false);
      this.activity.set({ userSpeaking: false });
    }
  }

  // Participant input --------------------------------------------------------------------------

  #meetingMs(epochMs) {
    if (!this.startedAt) return undefined;
    return Math.max(0, Math.round(epochMs + this.skew - this.startedAt));
  }

  #sendTyped(text, startedAt) {
    if (this.ended) return false;
    this.utterances.final(text, startedAt, Date.now(), 'typed');
    return true;
  }

  /** A sentence was stored: a final of the participant's is no longer at risk. */
  #stored(message) {
    if (!message.client_id) return;
    this.utterances.acknowledged(message.client_id);
    this.transcript.saved(message.client_id);
  }

  #browserInterim(text) {
    this.transcript.userDraft(text);
    this.utterances.interim(text);
  }

  #browserFinal({ text, startedAt, endedAt }) {
    this.utterances.endInterim();
    this.activity.set({ userSpeaking: false });
    if (!this.ended) this.utterances.final(text, startedAt, endedAt, 'voice');
  }

  // Recording, the end ------------------------------------------------------------------------------

  #startRecording() {
    if (!this.options.record || this.recording) return;
    // The Web Audio mix holds the persona when its voice is the service's, and the microphone
    // when there is one: recorded whenever it holds either, so a participant without a
    // microphone (camera only, or no device at all) still gets the persona in the recording.
    const mixed = this.persona.mode === 'service' || this.options.microphone;
    const audioTrack = mixed ? (this.audio?.recordingTrack() ?? null) : null;
    if (!this.options.stream && !audioTrack) return;
    this.recording = MeetingRecording.start({
      stream: this.options.stream,
      camera: this.options.camera,
      maxBytes: this.welcome.recording?.max_bytes,
      audioTrack,
      note: (text) => this.transcript.note(text),
    });
  }

  /** The participant leaves: the server ends the meeting and answers `ended`. */
  leave() {
    if (this.ended) return;
    this.persona.cancel();
    this.connection.leave();
  }

  async #end(reason, details) {
    if (this.ended) return;
    this.ended = true;
    this.timer.stop();
    this.voiceInput.stop();
    this.controls.dispose();
    this.#stopThinking();
    if (reason === 'participant_left') this.persona.cancel();
    const recorded = this.recording ? await this.recording.stop() : null;
    this.resolveDone({
      reason,
      message: details.message ?? null,
      durationSeconds: details.duration_seconds ?? null,
      turns: this.transcript.userLines,
      recordingExpected: Boolean(this.recording),
      media: recorded?.blob ?? null,
      mediaDurationMs: recorded?.durationMs ?? 0,
      mediaTruncated: Boolean(this.recording?.truncated),
      thumbnail: recorded?.thumbnail ?? null,
    });
  }
}
