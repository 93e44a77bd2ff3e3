// The latency part of bench/voice: one participant speaks N sentences into a meeting over the
// room's WebSocket, in real time, and waits for the persona's voice after each. For every
// utterance it measures, on its own clock:
//   total      end of the participant's speech (the frame holding the last voiced audio left)
//              → first byte of the persona's audio at the client;
//   endpoint   the end-of-speech silence the detector waits for (VOICE_END_SILENCE_MS, a policy);
//   after      the frame that completed that silence left → first audio byte (total − endpoint).
// The server's engine decorators (timed-engines.ts) say how long the recognition took to finish
// and the first sentence took to synthesise, and the loopback agent (agent-server.ts) how long it
// took to start its reply; the platform's own share is `after` minus those three: both WebSocket
// hops, the segmenter, storing the utterance, the turn, the call to the agent and its stream, the
// sentence split and the frame writes. Those instants are wall-clock readings of four processes
// on one machine, so the share is also split in four legs (each ± the clocks' offsets, their sum
// exact).
import { performance } from 'node:perf_hooks';
import type { FliteVoice } from '../../server/src/platform/speech/tts/flite-wasi.ts';
import { createMeeting, type ServerInfo } from '../live/lib.ts';
import type { AgentReply } from './agent-server.ts';
import { VoiceParticipant } from './client.ts';
import { PacedMicrophone } from './mic.ts';
import type { EngineTiming } from './timed-engines.ts';

export interface VoiceServerInfo extends ServerInfo {
  recognizer: string | null;
  synthesizer: string | null;
  endSilenceMs: number;
}

export interface Utterance {
  text: string;
  voice: FliteVoice;
  pcm: Buffer;
}

export type UtteranceResult = UtteranceSample | { said: string; heard: ''; missed: true };

export interface UtteranceSample {
  said: string;
  heard: string;
  missed: false;
  totalMs: number;
  endpointMs: number;
  afterMs: number;
  recognitionMs: number;
  replyMs: number;
  synthesisMs: number;
  platformMs: number;
  /** The share's legs: frame in → recognition finishing; final text → agent request received;
   * agent's first byte → synthesis called; audio synthesised → its first byte at the client. */
  inboundMs: number;
  toAgentMs: number;
  fromAgentMs: number;
  outboundMs: number;
  /** The agent call opened a new connection (keep-alive lapses between turns seconds apart). */
  newConnection: boolean;
  /** The server's utterance bounds differ from the client's detector replay (should never happen). */
  segmentMismatchMs: number;
  firstAudioText: string;
}

/** Quiet after the persona's audio has played (by the client's own playback clock) before speaking. */
const QUIET_AFTER_PERSONA_MS = 400;

export async function measureLatency(
  info: VoiceServerInfo,
  agentUrl: string,
  utterances: Utterance[],
  warmup: number,
): Promise<UtteranceResult[]> {
  const meeting = await createMeeting(info, info.agentScenarioId!);
  const p = await VoiceParticipant.connect(info.base, meeting.id, meeting.token);
  const mic = await PacedMicrophone.create((frame) => p.sendAudio(frame), info.endSilenceMs);
  const samples: UtteranceResult[] = [];
  try {
    p.send({ type: 'join', consent: { recording: false }, audio: { output: true } });
    const joined = await p.waitFor(() => p.frameAfter('joined', 0), 'joined');
    if (joined.frame.speech?.recognition == null || joined.frame.speech?.synthesis == null)
      throw new Error(`the server has no speech engines: ${JSON.stringify(joined.frame.speech)}`);
    // The welcome is spoken; listen to it to the end like a participant would.
    await p.waitFor(() => p.frameAfter('agent.message', 0), 'the welcome');
    await p.waitFor(() => (p.audio.length > 0 ? true : undefined), 'the welcome audio');
    p.send({ type: 'audio.start' });
    mic.start();
    for (let i = 0; i < utterances.length; i += 1) {
      await quiet(p);
      const sample = await speakOnce(p, mic, info, agentUrl, utterances[i]!);
      if (i >= warmup) samples.push(sample);
    }
    p.send({ type: 'leave' });
    await p.waitFor(() => p.frameAfter('ended', 0), 'ended').catch(() => undefined);
  } finally {
    mic.stop();
    p.close();
  }
  return samples;
}

/**
 * Waits until the persona has finished speaking: the server sends each sentence once the one
 * before has started playing, so audio may still come while the client plays; wait again then.
 */
async function quiet(p: VoiceParticipant): Promise<void> {
  for (;;) {
    const received = p.audio.length;
    const wait = p.playbackEndsAt + QUIET_AFTER_PERSONA_MS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (p.audio.length === received) return;
  }
}

async function speakOnce(
  p: VoiceParticipant,
  mic: PacedMicrophone,
  info: VoiceServerInfo,
  agentUrl: string,
  utterance: Utterance,
): Promise<UtteranceResult> {
  // Whatever was noted before (the previous reply's later sentences) is not this turn's.
  await drainTimings(info);
  await drainReplies(agentUrl);
  const framesBefore = p.frames.length;
  const audioBefore = p.audio.length;
  const detected = await mic.say(utterance.pcm);
  const stopped = await p.waitFor(() => p.frameAfter('speech.stopped', framesBefore), 'speech.stopped');
  const heard = String(stopped.frame.text);
  // Nothing recognised: the service does not answer, so there is no latency to measure.
  if (heard === '') return { said: utterance.text, heard, missed: true };
  const first = await p.waitFor(() => p.audio[audioBefore], 'the persona audio');
  // The turn's text is complete and its audio sent before the next sentence is said.
  await p.waitFor(() => p.frameAfter('agent.message', stopped.index), 'agent.message');
  const timings = await drainTimings(info);
  const recognition = timings.findLast((t) => t.kind === 'recognition' && t.text.trim() === heard);
  const synthesis = timings.find((t) => t.kind === 'synthesis' && t.text === first.header.text);
  const [reply] = await drainReplies(agentUrl);
  if (!recognition || !synthesis || !reply)
    throw new Error(`no engine or agent timings for "${heard}": ${JSON.stringify(timings)}`);
  const afterMs = first.at - detected.detectedSentAt;
  return {
    said: utterance.text,
    heard,
    missed: false,
    totalMs: first.at - detected.speechEndSentAt,
    endpointMs: detected.detectedSentAt - detected.speechEndSentAt,
    afterMs,
    recognitionMs: recognition.ms,
    replyMs: reply.firstByteAt - reply.receivedAt,
    synthesisMs: synthesis.ms,
    platformMs: afterMs - recognition.ms - (reply.firstByteAt - reply.receivedAt) - synthesis.ms,
    inboundMs: recognition.startedAt - toWall(detected.detectedSentAt),
    toAgentMs: reply.receivedAt - recognition.endedAt,
    fromAgentMs: synthesis.startedAt - reply.firstByteAt,
    outboundMs: toWall(first.at) - synthesis.endedAt,
    newConnection: reply.newConnection,
    segmentMismatchMs: Math.abs(
      Number(stopped.frame.end_ms) -
        Number(stopped.frame.start_ms) -
        (detected.speechEndMs - detected.startMs),
    ),
    firstAudioText: String(first.header.text),
  };
}

const toWall = (at: number) => performance.timeOrigin + at;

async function drainTimings(info: VoiceServerInfo): Promise<EngineTiming[]> {
  const response = await fetch(`${info.base}/bench/voice-timings`);
  return (await response.json()) as EngineTiming[];
}

async function drainReplies(agentUrl: string): Promise<AgentReply[]> {
  const response = await fetch(new URL('/bench/replies', agentUrl));
  return (await response.json()) as AgentReply[];
}
