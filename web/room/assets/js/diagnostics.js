// `window.roomDiagnostics`: read-only figures about the live meeting's voice, for support (read
// them in the browser console) and for the browser tests. Nothing here can change the meeting.

/** @param {import('./meeting.js').Meeting} meeting */
export function exposeDiagnostics(meeting) {
  const diagnostics = {
    /** How the participant is heard: `service`, `browser` or `typing`. */
    get input() {
      return meeting.voiceInput.mode;
    },
    /** How the persona is heard: `service`, `browser` or `none`. */
    get output() {
      return meeting.persona.mode;
    },
    /** When the recording started (epoch ms), or null. */
    get recordingStartedAt() {
      const started = meeting.recording?.startedAt;
      return started ? Math.round(performance.timeOrigin + started) : null;
    },
    /** The persona's audio from the service: counters, and the AudioContext's state and speaker. */
    get audio() {
      return {
        ...(meeting.playback?.stats ?? {}),
        speaking: meeting.persona.speaking,
        context: meeting.audio?.context.state ?? null,
        sinkId: meeting.audio?.context.sinkId ?? null,
      };
    },
  };
  Object.defineProperty(window, 'roomDiagnostics', { value: Object.freeze(diagnostics), configurable: true });
}
