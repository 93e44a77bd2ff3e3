// The meeting's recording, when this client records: camera plus the mix of microphone and
// persona (recorder.js) — or that mix alone for a participant without a camera, or without any
// device (then it holds the persona) — the "Recording" badge, and one still frame a few seconds in
// as the thumbnail.

import { byId } from './dom.js';
import { captureFrame, Recording } from './recorder.js';

const THUMBNAIL_AFTER_MS = 4000;

export class MeetingRecording {
  /**
   * Starts recording; returns null (after saying so in the transcript) when this browser cannot.
   * @param {{ stream: MediaStream | null, camera: boolean, audioTrack: MediaStreamTrack | null,
   *   maxBytes?: number, note: (text: string) => void }} options
   */
  static start(options) {
    try {
      return new MeetingRecording(options);
    } catch {
      options.note('Recording could not start in this browser; the meeting continues without it.');
      return null;
    }
  }

  constructor({ stream, camera, audioTrack, maxBytes }) {
    this.camera = camera;
    this.recording = new Recording(stream, { maxBytes, audioTrack });
    this.recording.start();
    this.thumbnail = null;
    this.thumbnailTimer = 0;
    byId('rec-indicator').hidden = false;
    if (camera) {
      this.thumbnailTimer = window.setTimeout(async () => {
        this.thumbnail = (await captureFrame(byId('self-video'))) ?? this.thumbnail;
      }, THUMBNAIL_AFTER_MS);
    }
  }

  /** performance.now() when MediaRecorder started (0 until then). */
  get startedAt() {
    return this.recording.startedAt;
  }

  get truncated() {
    return this.recording.truncated;
  }

  /** Stops: `{ blob, durationMs, thumbnail }` (blob null when nothing was recorded). */
  async stop() {
    clearTimeout(this.thumbnailTimer);
    byId('rec-indicator').hidden = true;
    if (!this.thumbnail && this.camera) this.thumbnail = await captureFrame(byId('self-video'));
    const recorded = await this.recording.stop();
    return { blob: recorded?.blob ?? null, durationMs: recorded?.durationMs ?? 0, thumbnail: this.thumbnail };
  }
}
