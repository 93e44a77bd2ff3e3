// The offline recogniser hears each meeting on its own (docs/speech.md, "Meeting vocabulary"): a
// meeting's scenario text makes its names and terms recognisable, and no state crosses meetings:
// the same audio gives the same text whatever other meetings said before it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { sourcePath } from '../../src/core/paths.ts';
import {
  createPocketSphinxRecognizer,
  detectPocketSphinx,
  POCKETSPHINX_INSTALL_HINT,
  type PocketSphinxRecognizer,
} from '../../src/platform/speech/stt/pocketsphinx.ts';
import type { RecognitionContext, SpeechRecognizer } from '../../src/platform/speech/types.ts';
import { normalizeWords } from '../../src/platform/speech/wer.ts';
import { chunksOf, noisePcm, silencePcm, spokenPcm } from './audio-fixtures.ts';

const detection = await detectPocketSphinx();
const skip = detection.available
  ? false
  : `PocketSphinx is not installed (${detection.reason}); install with: ${POCKETSPHINX_INSTALL_HINT}`;
const modelDir = detection.available ? detection.modelDir : '';
const logger = pino({ level: 'silent' });

// A scenario nobody tuned the engine on, with product names no dictionary holds.
const DISPATCH = `# Dispatch supervisor interview
You are Carla Mendes, head of dispatch at Quillmark Freight.
- Quillmark runs 140 trucks out of three depots: Fresno, Stockton and Modesto.
- Dispatchers plan the delivery routes every morning in RouteWise before five.
Ask how the candidate handles a driver calling in sick and how they use telematics data.`;
const COACHING = `You are a calm coach. The participant is preparing a salary negotiation with their manager.
Help them open the conversation, name their number and agree on next steps.`;

async function hear(recognizer: SpeechRecognizer, pcm: Buffer, context?: RecognitionContext) {
  const stream = recognizer.start({ language: 'en-US', context });
  for (const chunk of chunksOf(pcm, 100)) stream.write(chunk);
  return (await stream.finish()).text;
}

describe('Meeting vocabulary (PocketSphinx)', { skip }, () => {
  let recognizer: PocketSphinxRecognizer;
  const said = 'what does routewise do when a road is closed';
  let pcm: Buffer;
  before(async () => {
    recognizer = createPocketSphinxRecognizer({ modelDir, logger });
    pcm = Buffer.concat([await spokenPcm(said, 'awb'), silencePcm(300)]);
  });
  after(() => recognizer.close());

  test("a scenario's own product name is heard only in its meeting", async () => {
    const general = normalizeWords(await hear(recognizer, pcm));
    const inMeeting = normalizeWords(
      await hear(recognizer, pcm, { meetingId: 'mtg_vocabulary', vocabulary: DISPATCH }),
    );
    // The dictionary has no "routewise": the general model cannot produce it.
    assert.ok(!general.includes('routewise'), general.join(' '));
    assert.ok(inMeeting.includes('routewise'), inMeeting.join(' '));
  });

  test('the same audio gives the same text whatever other meetings said before it', async () => {
    const context = (meetingId: string) => ({ meetingId, vocabulary: DISPATCH });
    const first = await hear(recognizer, pcm, context('mtg_first'));
    // Other meetings: other voices, other scenarios, noise, no context at all.
    const other = Buffer.concat([
      await spokenPcm('i would like to ask for a raise of ten percent', 'slt'),
      silencePcm(200),
    ]);
    await hear(recognizer, other, { meetingId: 'mtg_other', vocabulary: COACHING });
    await hear(recognizer, Buffer.concat([noisePcm(1500, 0.1), other]), {
      meetingId: 'mtg_other',
      vocabulary: COACHING,
    });
    await hear(recognizer, other);
    await hear(recognizer, Buffer.concat([noisePcm(600, 0.05), pcm]), context('mtg_third'));
    assert.equal(await hear(recognizer, pcm, context('mtg_fresh')), first);
  });

  test('a meeting keeps what its recogniser learnt of its speaker, untouched by other meetings', async () => {
    const warmUp = Buffer.concat([
      await spokenPcm('the drivers plan the loads in the morning', 'awb'),
      silencePcm(200),
    ]);
    // One recogniser: the meeting alone. Another: the same meeting with another one in between.
    const alone = createPocketSphinxRecognizer({ modelDir, logger });
    try {
      await hear(alone, warmUp, { meetingId: 'mtg_a', vocabulary: DISPATCH });
      const expected = await hear(alone, pcm, { meetingId: 'mtg_a', vocabulary: DISPATCH });
      await hear(recognizer, warmUp, { meetingId: 'mtg_a', vocabulary: DISPATCH });
      const other = Buffer.concat([
        await spokenPcm('let us talk about the salary', 'slt'),
        noisePcm(800, 0.1),
      ]);
      await hear(recognizer, other, { meetingId: 'mtg_b', vocabulary: COACHING });
      await hear(recognizer, other, { meetingId: 'mtg_b', vocabulary: COACHING });
      assert.equal(await hear(recognizer, pcm, { meetingId: 'mtg_a', vocabulary: DISPATCH }), expected);
    } finally {
      await alone.close();
    }
  });
});

test('meeting_model.py: numbers, Markdown, Witten-Bell distributions, pronunciations', { skip }, () => {
  const run = spawnSync('/usr/bin/python3', ['-m', 'unittest', 'meeting_model_test'], {
    cwd: sourcePath('platform', 'speech', 'stt'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /^OK/m);
});
