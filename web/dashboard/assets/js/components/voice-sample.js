// "Play sample" for a voice: fetches GET /v1/voices/{id}/sample (audio/wav) with the session and
// plays it from a blob URL (the dashboard's CSP allows media-src blob:, not the API's address).
import { api } from '../api.js';
import { html, useEffect, useRef, useState } from '../lib.js';
import { Button, ErrorNotice } from './ui.js';

export function VoiceSample({ voiceId, voiceName, variant = 'secondary' }) {
  const [source, setSource] = useState(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const audio = useRef(null);
  const loadedFor = useRef(null);

  // A new voice, or leaving the view, frees the previous sample.
  useEffect(() => {
    return () => {
      if (source) URL.revokeObjectURL(source);
    };
  }, [source]);
  useEffect(() => {
    if (loadedFor.current && loadedFor.current !== voiceId) {
      setSource(null);
      loadedFor.current = null;
    }
  }, [voiceId]);

  const play = async () => {
    setError(null);
    if (source && loadedFor.current === voiceId) {
      audio.current?.play().catch(() => {});
      return;
    }
    setBusy(true);
    try {
      const response = await api.get(`voices/${encodeURIComponent(voiceId)}/sample`, undefined, {
        raw: true,
      });
      const blob = await response.blob();
      loadedFor.current = voiceId;
      setSource(URL.createObjectURL(blob));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  // Plays once the element has its new source (after the render that set it).
  useEffect(() => {
    if (source) audio.current?.play().catch(() => {});
  }, [source]);

  return html`<div class="voice-sample">
    <${Button} variant=${variant} busy=${busy} disabled=${!voiceId} onClick=${play}
      aria-label=${voiceName ? `Play sample: ${voiceName}` : undefined}>▶ Play sample<//>
    ${
      source &&
      html`<audio ref=${audio} class="voice-sample__audio" controls src=${source} data-voice-sample=${voiceId}
      aria-label=${voiceName ? `Sample of ${voiceName}` : 'Voice sample'}></audio>`
    }
    <${ErrorNotice} error=${error} title="The sample could not be played" />
  </div>`;
}
