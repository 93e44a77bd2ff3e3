// Camera and microphone: one permission prompt, graceful fallbacks (microphone only when there is
// no camera), and a message the participant can act on when access is refused.

/** Echo cancellation keeps the persona's voice from the speakers out of what the service hears. */
const VOICE_PROCESSING = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };

function microphoneConstraints(deviceId) {
  return deviceId ? { ...VOICE_PROCESSING, deviceId: { exact: deviceId } } : { ...VOICE_PROCESSING };
}

/**
 * Asks for camera and microphone. Resolves `{ stream, camera, microphone }` or
 * `{ stream: null, error: { kind, message } }`; never rejects.
 */
export async function requestMedia({ microphoneId = null } = {}) {
  if (!navigator.mediaDevices?.getUserMedia) {
    return {
      stream: null,
      error: {
        kind: 'unsupported',
        message: window.isSecureContext
          ? 'This browser cannot use a camera or microphone here. You can still take part by typing.'
          : 'Camera and microphone need a secure (https) page. You can still take part by typing.',
      },
    };
  }
  const audio = microphoneConstraints(microphoneId);
  const video = { width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: 'user' };
  try {
    return describe(await navigator.mediaDevices.getUserMedia({ audio, video }));
  } catch (error) {
    if (
      error?.name === 'NotFoundError' ||
      error?.name === 'OverconstrainedError' ||
      error?.name === 'NotReadableError'
    ) {
      // No camera (or it is busy): the microphone alone is still worth having.
      try {
        return describe(await navigator.mediaDevices.getUserMedia({ audio }));
      } catch (second) {
        return { stream: null, error: explain(second) };
      }
    }
    return { stream: null, error: explain(error) };
  }
}

function describe(stream) {
  return {
    stream,
    camera: stream.getVideoTracks().length > 0,
    microphone: stream.getAudioTracks().length > 0,
    error: null,
  };
}

function explain(error) {
  switch (error?.name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return {
        kind: 'denied',
        message:
          'Camera and microphone access was blocked. You can still take part by typing. To use your voice, allow access in the browser’s site settings (the icon next to the address bar) and reload the page.',
      };
    case 'NotFoundError':
    case 'OverconstrainedError':
      return {
        kind: 'missing',
        message: 'No camera or microphone was found. You can still take part by typing.',
      };
    case 'NotReadableError':
      return {
        kind: 'busy',
        message:
          'Your camera or microphone is in use by another application. Close it and try again, or continue by typing.',
      };
    default:
      return {
        kind: 'failed',
        message: 'The camera and microphone could not be started. You can still take part by typing.',
      };
  }
}

/**
 * Replaces the stream's microphone by another device, in place (the camera and whoever holds the
 * stream keep it). The new track keeps the old one's mute state. Rejects when the device cannot
 * be opened; the old microphone then stays.
 */
export async function switchMicrophone(stream, deviceId) {
  const fresh = await navigator.mediaDevices.getUserMedia({ audio: microphoneConstraints(deviceId) });
  const track = fresh.getAudioTracks()[0];
  const old = stream.getAudioTracks();
  track.enabled = old[0]?.enabled ?? true;
  for (const previous of old) {
    stream.removeTrack(previous);
    previous.stop();
  }
  stream.addTrack(track);
  return track;
}

/** The device id of the stream's microphone (null without one). */
export function microphoneDeviceId(stream) {
  return stream?.getAudioTracks()[0]?.getSettings?.().deviceId ?? null;
}

export function stopStream(stream) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** Drives a level bar from the microphone; returns a function that stops it. */
export function meterLevel(stream, element) {
  const Context = window.AudioContext ?? window.webkitAudioContext;
  if (!Context || !stream?.getAudioTracks().length) return () => {};
  const context = new Context();
  const analyser = context.createAnalyser();
  analyser.fftSize = 512;
  const source = context.createMediaStreamSource(stream);
  source.connect(analyser);
  const samples = new Uint8Array(analyser.fftSize);
  let frame = 0;
  const draw = () => {
    analyser.getByteTimeDomainData(samples);
    let peak = 0;
    for (const sample of samples) peak = Math.max(peak, Math.abs(sample - 128));
    element.style.width = `${Math.min(100, Math.round((peak / 128) * 160))}%`;
    frame = requestAnimationFrame(draw);
  };
  draw();
  return () => {
    cancelAnimationFrame(frame);
    source.disconnect();
    context.close().catch(() => {});
    element.style.width = '0';
  };
}
