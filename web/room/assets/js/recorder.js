// Records the meeting with MediaRecorder (only after consent): the participant's camera, and one
// audio track that mixes their microphone with the persona's voice from the service (graph.js),
// so the recording plays back the whole conversation. MediaRecorder's WebM has no duration (it
// is written live), which leaves players unable to seek: the duration is written in before the
// upload (fix-webm-duration, served from the room's own origin). Also captures one still frame
// from the camera as the recording's thumbnail.

const VIDEO_TYPES = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'];
const AUDIO_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4', 'audio/ogg;codecs=opus'];
const CHUNK_MS = 1000;
/** Leave room under the server's limit for the container's final bytes. */
const SIZE_MARGIN = 2 * 1024 * 1024;
const FIX_WEBM_DURATION = new URL('../vendor/fix-webm-duration.js', import.meta.url).href;

export function recordingSupported() {
  return typeof MediaRecorder !== 'undefined';
}

function mimeTypeFor(stream) {
  const candidates = stream.getVideoTracks().length ? VIDEO_TYPES : AUDIO_TYPES;
  return candidates.find((type) => MediaRecorder.isTypeSupported(type)) ?? '';
}

/** Writes the duration into a WebM blob; any other blob (or a failure) comes back unchanged. */
export async function withDuration(blob, durationMs) {
  if (!/webm/i.test(blob.type) || !(durationMs > 0)) return blob;
  try {
    const { default: fixWebmDuration } = await import(FIX_WEBM_DURATION);
    return await fixWebmDuration(blob, durationMs, { logger: false });
  } catch {
    return blob;
  }
}

export class Recording {
  /**
   * @param {MediaStream | null} stream camera and microphone (null without devices: audioTrack only)
   * @param {{ maxBytes?: number, audioTrack?: MediaStreamTrack | null }} options `audioTrack`:
   *   the mix of microphone and persona to record instead of the stream's own microphone
   */
  constructor(stream, { maxBytes = 500 * 1024 * 1024, audioTrack = null } = {}) {
    const audio = audioTrack ? [audioTrack] : (stream?.getAudioTracks() ?? []);
    this.stream = new MediaStream([...(stream?.getVideoTracks() ?? []), ...audio]);
    this.mixed = Boolean(audioTrack);
    this.maxBytes = maxBytes;
    this.chunks = [];
    this.bytes = 0;
    this.truncated = false;
    this.recorder = null;
    this.stopped = null;
    this.startedAt = 0;
    this.durationMs = 0;
  }

  start() {
    const mimeType = mimeTypeFor(this.stream);
    this.recorder = new MediaRecorder(this.stream, mimeType ? { mimeType } : undefined);
    this.stopped = new Promise((resolve) => {
      this.recorder.addEventListener(
        'stop',
        () => {
          if (this.startedAt) this.durationMs = Math.round(performance.now() - this.startedAt);
          resolve();
        },
        { once: true },
      );
      this.recorder.addEventListener('error', () => resolve(), { once: true });
    });
    this.recorder.addEventListener('start', () => {
      this.startedAt = performance.now();
    });
    this.recorder.addEventListener('dataavailable', (event) => {
      if (!event.data?.size) return;
      if (this.bytes + event.data.size > this.maxBytes - SIZE_MARGIN) {
        // Past the upload limit: keep what fits and stop recording.
        this.truncated = true;
        if (this.recorder.state !== 'inactive') this.recorder.stop();
        return;
      }
      this.chunks.push(event.data);
      this.bytes += event.data.size;
    });
    this.recorder.start(CHUNK_MS);
  }

  get recording() {
    return this.recorder?.state === 'recording';
  }

  /**
   * Stops and resolves `{ blob, durationMs }` with the duration written into a WebM, or null when
   * nothing was recorded.
   */
  async stop() {
    if (!this.recorder) return null;
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    await this.stopped;
    if (!this.chunks.length || !this.startedAt) return null;
    const type = (this.recorder.mimeType || this.chunks[0].type || 'video/webm').replace(/\s+/g, '');
    const blob = await withDuration(new Blob(this.chunks, { type }), this.durationMs);
    return { blob, durationMs: this.durationMs };
  }
}

/** A JPEG of the video's current frame, at most 640 px wide; null when there is no frame. */
export function captureFrame(video, maxWidth = 640) {
  if (!video || video.readyState < 2 || !video.videoWidth) return Promise.resolve(null);
  const scale = Math.min(1, maxWidth / video.videoWidth);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  const context = canvas.getContext('2d');
  if (!context) return Promise.resolve(null);
  context.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/jpeg', 0.85));
}
