// What the room's voice tests in Chromium share (voice-browser.test.ts, voice-noise-browser.test.ts):
// the offline engines started before the meeting, and an interview meeting with the persona Elena.
import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createPocketSphinxRecognizer } from '../../src/platform/speech/stt/pocketsphinx.ts';
import { createFliteSynthesizer } from '../../src/platform/speech/tts/flite.ts';
import type { SpeechEngines } from '../../src/platform/speech/types.ts';
import { silencePcm } from '../speech/audio-fixtures.ts';

type Api = (method: string, url: string, payload?: object) => Promise<{ status: number; body: any }>;

export interface RoomMeeting {
  id: string;
  room_meeting_url: string;
  room_token: string;
}

/**
 * PocketSphinx and Flite, started now. Both start lazily (the sidecar loads its model on the first
 * utterance, the Flite worker compiles its module on the first sentence): a loaded machine (CI runs
 * test files in parallel) would otherwise shift the meeting's timeline against the fake microphone's.
 */
export async function startedOfflineEngines(modelDir: string): Promise<SpeechEngines> {
  const speech = {
    recognizer: createPocketSphinxRecognizer({ modelDir, logger: pino({ level: 'silent' }) }),
    synthesizer: createFliteSynthesizer(),
  };
  const warmUp = speech.recognizer.start({ language: 'en-US' });
  warmUp.write(silencePcm(200));
  await warmUp.finish();
  await speech.synthesizer.synthesize('Ready.', {
    ttsVoice: null,
    gender: 'female',
    voiceId: null,
    language: 'en-US',
  });
  return speech;
}

/** A meeting with Elena, a support director interviewing for a support team lead. */
export async function createInterviewMeeting(
  api: Api,
  scenario: { prompt: string; welcome_message: string; session_options: object },
): Promise<RoomMeeting> {
  const persona = await api('POST', '/v1/personas', {
    name: 'Elena Fischer',
    job_title: 'Support Director',
    gender: 'female',
    demeanor: 'friendly',
  });
  assert.equal(persona.status, 201, JSON.stringify(persona.body));
  const created = await api('POST', '/v1/scenarios', {
    name: 'Support Lead Interview',
    type: 'interview',
    persona_id: persona.body.id ?? persona.body.data?.id,
    description: 'A screening interview for a support team lead.',
    call_duration: 10,
    ...scenario,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const meeting = await api('POST', '/v1/meetings', {
    scenario_id: created.body.id ?? created.body.data?.id,
    person_name: 'Sam Lee',
  });
  assert.equal(meeting.status, 201, JSON.stringify(meeting.body));
  return meeting.body.data as RoomMeeting;
}

const MICROPHONE_LOCK = join(tmpdir(), 'understudy-voice-room.lock');
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The Chromium voice tests take the machine in turn: run together (the test runner starts three
 * files at once), each one's recogniser and noise suppression starve the other's, and neither hears
 * its speech (seen on this kind of machine with both files at once, never with one). Resolves with a
 * release; a lock left by a process that died is taken over.
 */
export async function takeTheVoiceRoom(): Promise<() => void> {
  for (;;) {
    try {
      const fd = openSync(MICROPHONE_LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(MICROPHONE_LOCK, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(MICROPHONE_LOCK, 'utf8'), 10);
      if (!Number.isInteger(holder) || !alive(holder)) rmSync(MICROPHONE_LOCK, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
