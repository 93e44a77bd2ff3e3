// The persona's voice, from wherever it comes: the service's audio (`agent.audio`, played through
// Web Audio, and mixed into the recording) when the service synthesises, else the browser's
// speech synthesis fed with the streamed text (voice.js), else silence (the lines are only shown).
// Emits `speaking` and `idle`.

import { PersonaPlayback } from './audio/playback.js';
import { loadVoices, pickVoice, Speaker } from './voice.js';

export class PersonaVoice extends EventTarget {
  /**
   * Both ways ready: the Web Audio player (when there is an AudioContext) and the browser voice
   * that fits the persona best (when the browser has any).
   * @param {{ persona: object | null, language: string,
   *   audio: import('./audio/graph.js').MeetingAudio | null }} options
   */
  static async create({ persona, language, audio }) {
    const synth = globalThis.speechSynthesis;
    const voices = synth ? await loadVoices(synth) : [];
    const voice = pickVoice(voices, {
      hints: persona?.voice?.browser_voice_hints ?? [],
      language,
      gender: persona?.gender ?? persona?.voice?.gender ?? null,
    });
    const speaker = new Speaker({
      voice,
      language,
      gender: persona?.gender ?? null,
      enabled: voices.length > 0,
    });
    return new PersonaVoice({ playback: audio ? new PersonaPlayback(audio) : null, speaker });
  }

  /**
   * @param {object} options
   * @param {import('./audio/playback.js').PersonaPlayback | null} options.playback service audio
   * @param {import('./voice.js').Speaker} options.speaker browser speech synthesis
   */
  constructor({ playback, speaker }) {
    super();
    this.playback = playback;
    this.speaker = speaker;
    /** `service` once the service confirmed it sends audio, else `browser` (or `none`). */
    this.mode = speaker.available ? 'browser' : 'none';
    const forward = (type) => () => this.dispatchEvent(new Event(type));
    for (const source of [playback, speaker]) {
      source?.addEventListener('speaking', forward('speaking'));
      source?.addEventListener('idle', forward('idle'));
    }
  }

  /** Whether to ask the service for audio in `join` (it may still answer without it). */
  get canPlayServiceAudio() {
    return this.playback !== null;
  }

  /** The `joined` message's `speech.synthesis` decides who speaks. */
  useService(on) {
    this.mode = on && this.playback ? 'service' : this.speaker.available ? 'browser' : 'none';
  }

  get speaking() {
    return this.mode === 'service' ? this.playback.speaking : this.speaker.speaking;
  }

  /** A piece of the streamed reply (spoken by the browser; the service sends audio instead). */
  delta(turnId, text) {
    if (this.mode === 'browser') this.speaker.push(turnId, text);
  }

  /** One `agent.audio` sentence and its PCM frame. */
  audio(header, data) {
    if (this.mode === 'service') this.playback.play(header, data);
  }

  /** The turn's final text; `interrupted` stops what is left of it at once. */
  finish(turnId, text, interrupted) {
    if (this.mode === 'service') {
      if (interrupted) this.playback.stopTurn(turnId);
    } else {
      this.speaker.finish(turnId, text, interrupted);
    }
  }

  /** A filler phrase (the service sends fillers as audio itself). */
  filler(text) {
    if (this.mode === 'browser' && text) this.speaker.sayOnce(text);
  }

  /** The participant talked over the persona or left: silence now. */
  cancel() {
    this.playback?.stopAll();
    this.speaker.cancel();
  }
}
