// Chooses and builds the speech engines from the configuration (README configuration table,
// docs/speech.md). Nothing heavy happens here: the PocketSphinx sidecar and the Flite WASM compile
// start on first use, so a service (or a test) that never speaks pays only the one-off detection.
import type { Logger } from 'pino';
import { ConfigError, type SpeechConfig } from '../../config.ts';
import { type OpenAiSpeechConfig, openAiLabel } from './openai-http.ts';
import { createOpenAiRecognizer } from './stt/openai.ts';
import {
  createPocketSphinxRecognizer,
  DEFAULT_PYTHON,
  detectPocketSphinx,
  POCKETSPHINX_INSTALL_HINT,
  POCKETSPHINX_LABEL,
} from './stt/pocketsphinx.ts';
import { createFliteSynthesizer, FLITE_LABEL } from './tts/flite.ts';
import { createOpenAiSynthesizer } from './tts/openai.ts';
import type { SpeechEngines } from './types.ts';

export type { SpeechEngines } from './types.ts';

type RecognizerPlan =
  | { kind: 'openai'; endpoint: OpenAiSpeechConfig; interimIntervalMs: number }
  | { kind: 'pocketsphinx'; modelDir: string }
  | { kind: 'none'; why: string };
type SynthesizerPlan =
  | { kind: 'openai'; endpoint: OpenAiSpeechConfig }
  | { kind: 'flite' }
  | { kind: 'none'; why: string };

export interface SpeechPlan {
  recognizer: RecognizerPlan;
  synthesizer: SynthesizerPlan;
}

export interface SpeechPlanOptions {
  /** The interpreter that runs the PocketSphinx sidecar. */
  python?: string;
}

function endpoint(config: SpeechConfig['stt'] | SpeechConfig['tts']): OpenAiSpeechConfig {
  return { baseUrl: config.baseUrl!, apiKey: config.apiKey, model: config.model };
}

/** Which engine each direction gets; shared by createSpeechEngines and the start-up banner. */
export async function planSpeechEngines(
  config: { speech: SpeechConfig },
  options: SpeechPlanOptions = {},
): Promise<SpeechPlan> {
  const { stt, tts } = config.speech;
  return { recognizer: await planRecognizer(stt, options), synthesizer: planSynthesizer(tts) };
}

async function planRecognizer(stt: SpeechConfig['stt'], options: SpeechPlanOptions): Promise<RecognizerPlan> {
  if (stt.engine === 'off') return { kind: 'none', why: 'STT_ENGINE=off' };
  if (stt.engine === 'openai' || (stt.engine === 'auto' && stt.baseUrl)) {
    return { kind: 'openai', endpoint: endpoint(stt), interimIntervalMs: stt.interimIntervalMs };
  }
  const detection = await detectPocketSphinx(options.python ?? DEFAULT_PYTHON);
  if (detection.available) return { kind: 'pocketsphinx', modelDir: detection.modelDir };
  if (stt.engine === 'pocketsphinx') {
    // Asked for by name: better to stop than to run a service whose rooms cannot hear.
    throw new ConfigError(
      `STT_ENGINE=pocketsphinx but ${detection.reason} (install with: ${POCKETSPHINX_INSTALL_HINT})`,
    );
  }
  return { kind: 'none', why: `install with: ${POCKETSPHINX_INSTALL_HINT}` };
}

function planSynthesizer(tts: SpeechConfig['tts']): SynthesizerPlan {
  if (tts.engine === 'off') return { kind: 'none', why: 'TTS_ENGINE=off' };
  if (tts.engine === 'openai' || (tts.engine === 'auto' && tts.baseUrl)) {
    return { kind: 'openai', endpoint: endpoint(tts) };
  }
  return { kind: 'flite' };
}

/** The engines the live loop uses; `recognizer`/`synthesizer` are null when that direction is off. */
export async function createSpeechEngines(
  config: { speech: SpeechConfig },
  logger: Logger,
  options: SpeechPlanOptions = {},
): Promise<SpeechEngines> {
  const plan = await planSpeechEngines(config, options);
  const engines = buildSpeechEngines(plan, logger, options);
  logger.debug(
    { recognizer: engines.recognizer?.label ?? null, synthesizer: engines.synthesizer?.label ?? null },
    'speech engines chosen',
  );
  return engines;
}

export function buildSpeechEngines(
  plan: SpeechPlan,
  logger: Logger,
  options: SpeechPlanOptions = {},
): SpeechEngines {
  const { recognizer, synthesizer } = plan;
  return {
    recognizer:
      recognizer.kind === 'openai'
        ? createOpenAiRecognizer(recognizer.endpoint, { interimEveryMs: recognizer.interimIntervalMs })
        : recognizer.kind === 'pocketsphinx'
          ? createPocketSphinxRecognizer({ modelDir: recognizer.modelDir, python: options.python, logger })
          : null,
    synthesizer:
      synthesizer.kind === 'openai'
        ? createOpenAiSynthesizer(synthesizer.endpoint)
        : synthesizer.kind === 'flite'
          ? createFliteSynthesizer()
          : null,
  };
}

/** Stops the sidecar and the worker (service shutdown). */
export async function closeSpeechEngines(engines: SpeechEngines): Promise<void> {
  await Promise.all([engines.recognizer?.close(), engines.synthesizer?.close()]);
}

/**
 * The two start-up banner lines (server/src/main.ts), from the same plan createSpeechEngines
 * follows, so main.ts needs no engine instance.
 */
export function speechBannerLines(plan: SpeechPlan): string[] {
  const { recognizer, synthesizer } = plan;
  const stt =
    recognizer.kind === 'openai'
      ? openAiLabel(recognizer.endpoint)
      : recognizer.kind === 'pocketsphinx'
        ? POCKETSPHINX_LABEL
        : `none (${recognizer.why}) — rooms use the browser's recognition or typing`;
  const tts =
    synthesizer.kind === 'openai'
      ? openAiLabel(synthesizer.endpoint)
      : synthesizer.kind === 'flite'
        ? FLITE_LABEL
        : `none (${synthesizer.why}) — the persona's replies are text only`;
  return [`Speech to text: ${stt}`, `Text to speech: ${tts}`];
}
