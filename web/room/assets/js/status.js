// The one status line under the transcript: how the participant is heard right now. It is
// rendered from a single state, never from events one after another, so it cannot say "you can
// speak" after it said the microphone failed. Rules:
//
// - `input` is how the participant is heard: `service` (the service's recogniser), `browser`
//   (the browser's SpeechRecognition) or `typing`.
// - A voice input starts in phase `starting` and says nothing about speaking until its engine
//   confirms (`ready`). A failure switches `input` to the next fallback with the reason.
// - Phase updates name the input they come from; one from an input no longer in use (a late
//   event of the engine that just failed) is ignored.
// - `muted` and a connection that is not up (`joining`, `reconnecting`) take precedence.

const READY = {
  service: 'Voice recognised by the service. Speak or type.',
  browser: 'Voice recognised by your browser. Speak or type.',
};

/** Which recogniser listens (`joined.speech.recognition`): the participant should know what hears them. */
const SERVICE_ENGINES = {
  pocketsphinx:
    'Voice recognised by the service’s offline recogniser (PocketSphinx: speak clearly, close to the microphone). Speak or type.',
  'openai-compatible':
    'Voice recognised by the service’s speech recogniser (Whisper-compatible). Speak or type.',
};

/** The status line for a state (pure, for the tests). */
export function describeStatus(state) {
  if (state.connection === 'joining') return { text: 'Joining the meeting…', tone: 'info' };
  if (state.connection === 'reconnecting') {
    return { text: 'Connection lost. Reconnecting…', tone: 'warn' };
  }
  if (state.input === 'typing') {
    return { text: state.reason ? `Type your replies. ${state.reason}` : 'Type your replies.', tone: 'info' };
  }
  if (state.muted) return { text: 'Microphone muted. Type your replies, or unmute to speak.', tone: 'info' };
  if (state.phase === 'ready') {
    const text = (state.input === 'service' && SERVICE_ENGINES[state.engine]) || READY[state.input];
    return { text, tone: 'ok' };
  }
  return {
    text: state.input === 'service' ? 'Starting your microphone…' : 'Starting voice recognition…',
    tone: 'info',
  };
}

export class StatusLine {
  /** @param {HTMLElement} element */
  constructor(element) {
    this.element = element;
    this.state = { connection: 'joining', input: 'typing', phase: 'ready', reason: '', muted: false };
    this.flashText = '';
    this.flashTimer = 0;
    this.render();
  }

  /** The input chosen (at join, or a fallback after a failure). */
  /** `engine`: the service's recogniser (`joined.speech.recognition`), named once it is ready. */
  useInput(input, reason = '', engine = '') {
    this.state = { ...this.state, input, reason, engine, phase: input === 'typing' ? 'ready' : 'starting' };
    this.render();
  }

  /** The engine of `input` confirmed it hears the microphone. Ignored for an input not in use. */
  ready(input) {
    if (this.state.input !== input) return;
    this.state = { ...this.state, phase: 'ready' };
    this.render();
  }

  /** The engine of `input` is starting again (microphone unmuted, device switched). */
  starting(input) {
    if (this.state.input !== input) return;
    this.state = { ...this.state, phase: 'starting' };
    this.render();
  }

  setMuted(muted) {
    this.state = { ...this.state, muted };
    this.render();
  }

  setConnection(connection) {
    this.state = { ...this.state, connection };
    this.render();
  }

  /** A one-off message (e.g. a message could not be sent), shown over the state for a few seconds. */
  flash(text, ms = 6000) {
    this.flashText = text;
    clearTimeout(this.flashTimer);
    this.flashTimer = window.setTimeout(() => {
      this.flashText = '';
      this.render();
    }, ms);
    this.render();
  }

  render() {
    const { text, tone } = describeStatus(this.state);
    this.element.textContent = this.flashText || text;
    this.element.dataset.tone = this.flashText ? 'warn' : tone;
  }

  /** Clears a flash (the state it overlaid is shown again). */
  clearFlash() {
    clearTimeout(this.flashTimer);
    this.flashText = '';
    this.render();
  }
}
