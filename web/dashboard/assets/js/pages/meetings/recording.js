// The recording beside its transcript, kept in step: while it plays the sentence being spoken is
// highlighted (and scrolled into view inside the transcript), and choosing a sentence plays from
// there. Without a recording the transcript is still shown, with its timestamps.
import { api } from '../../api.js';
import { EmptyState, ErrorNotice, Loading } from '../../components/ui.js';
import { useApi } from '../../hooks.js';
import { html, useEffect, useRef, useState } from '../../lib.js';

/** The signed recording, or null when the meeting has none (404). */
async function loadRecording(meetingId) {
  try {
    const body = await api.get(`recordings/url-with-thumbnail/${meetingId}`);
    return body?.data ?? body;
  } catch (error) {
    if (error.status === 404) return null;
    throw error;
  }
}

const secondsOf = (sentence) => (sentence.start_ms ?? 0) / 1000;

/** The index of the sentence being spoken at `time` (the last one that started), or -1. */
export function sentenceAt(sentences, time) {
  let current = -1;
  for (let index = 0; index < sentences.length; index += 1) {
    if (secondsOf(sentences[index]) <= time) current = index;
    else break;
  }
  return current;
}

function speakerLabel(sentence, participant, persona) {
  return sentence.speaker === 'user' ? participant || 'Participant' : persona || 'Persona';
}

function Line({ sentence, speaker }) {
  return html`<span class="transcript__time">${sentence.start_duration}</span>
    <span class="transcript__speaker">${speaker}</span>
    <span class="transcript__message">${sentence.message}</span>`;
}

export function RecordingAndTranscript({ meetingId, sentences, participant, persona, ended }) {
  const recording = useApi(() => loadRecording(meetingId), [meetingId, ended]);
  const media = useRef(null);
  const list = useRef(null);
  const [current, setCurrent] = useState(-1);
  const ordered = [...sentences].sort((a, b) => a.sequence_number - b.sequence_number);
  const playable = Boolean(recording.data?.url);

  useEffect(() => {
    const item = list.current?.querySelector(`[data-index="${current}"]`);
    const box = list.current;
    if (!item || !box) return;
    // Scroll inside the transcript only: scrollIntoView would move the whole page while reading.
    if (
      item.offsetTop < box.scrollTop ||
      item.offsetTop + item.offsetHeight > box.scrollTop + box.clientHeight
    ) {
      box.scrollTop = item.offsetTop - box.clientHeight / 3;
    }
  }, [current]);

  const seek = (index) => {
    const element = media.current;
    if (!element) return;
    element.currentTime = secondsOf(ordered[index]);
    setCurrent(index);
    element.play().catch(() => {});
  };

  const isAudio = /^audio\//.test(recording.data?.content_type ?? '');
  let player;
  if (recording.loading) player = html`<${Loading} rows=${1} label="Loading the recording…" />`;
  else if (recording.error)
    player = html`<${ErrorNotice} error=${recording.error} title="The recording could not be loaded" />`;
  else if (!playable)
    player = html`<p class="muted recording__none">${ended ? 'This meeting has no recording.' : 'The recording is available after the meeting ends.'}</p>`;
  else if (isAudio)
    player = html`<audio ref=${media} class="recording__media" controls preload="metadata" src=${recording.data.url}
      aria-label="Meeting recording" onTimeUpdate=${(event) => setCurrent(sentenceAt(ordered, event.currentTarget.currentTime))}></audio>`;
  else
    player = html`<video ref=${media} class="recording__media" controls preload="metadata" playsinline src=${recording.data.url}
      poster=${recording.data.thumbnail_url || undefined} aria-label="Meeting recording"
      onTimeUpdate=${(event) => setCurrent(sentenceAt(ordered, event.currentTarget.currentTime))}></video>`;

  return html`<div class="recording">
    <div class="recording__player">${player}</div>
    <div class="recording__transcript">
      <h3 id="transcript-heading">Transcript</h3>
      ${
        ordered.length === 0
          ? html`<${EmptyState} title="No transcript">${ended ? 'Nothing was said in this meeting.' : 'The transcript fills in as the meeting goes on.'}<//>`
          : html`<ol class="transcript" ref=${list} aria-labelledby="transcript-heading" tabindex="0">
              ${ordered.map(
                (sentence, index) => html`<li key=${sentence.id} data-index=${index}
                  class=${`transcript__line transcript__line--${sentence.speaker === 'user' ? 'user' : 'agent'}${index === current ? ' transcript__line--current' : ''}`}
                  aria-current=${index === current ? 'true' : undefined}>
                  ${
                    playable
                      ? html`<button type="button" class="transcript__body" onClick=${() => seek(index)}
                          title="Play the recording from here"><${Line} sentence=${sentence} speaker=${speakerLabel(sentence, participant, persona)} /></button>`
                      : html`<div class="transcript__body"><${Line} sentence=${sentence} speaker=${speakerLabel(sentence, participant, persona)} /></div>`
                  }
                </li>`,
              )}
            </ol>`
      }
    </div>
  </div>`;
}
