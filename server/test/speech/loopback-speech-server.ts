// A real HTTP server on 127.0.0.1 speaking the OpenAI-compatible audio API, for the adapter tests
// and the voice benchmark: `POST /v1/audio/transcriptions` parses the multipart upload and answers
// a configurable text; `POST /v1/audio/speech` answers a real WAV spoken by Flite. It checks the
// key and the model like the real thing and records every request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFliteSynthesizer } from '../../src/platform/speech/tts/flite.ts';
import type { SpeechSynthesizer } from '../../src/platform/speech/types.ts';
import { decodeWav, encodeWav, resamplePcm } from '../../src/platform/speech/wav.ts';

export interface RecordedSpeechRequest {
  path: string;
  authorization: string | null;
  contentType: string;
  /** Form fields (transcriptions) or JSON body (speech). */
  fields: Record<string, string>;
  /** The uploaded audio, decoded (transcriptions). */
  audio: { pcm: Buffer; sampleRate: number } | null;
  receivedAt: number;
}

/** Replaces the normal answer of every request while set (failure injection). */
export interface SpeechServerOverride {
  status?: number;
  body?: string | Buffer;
  contentType?: string;
  /** Wait this long before answering (a slow or hung server). */
  delayMs?: number;
}

export interface LoopbackSpeechServerOptions {
  /** When set, requests need `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
  /** When set, other models get 404 like OpenAI's "model not found". */
  sttModel?: string;
  ttsModel?: string;
  /** The transcription's text: fixed, or computed from the uploaded audio. Default "hello there". */
  transcribe?:
    | string
    | ((
        audio: { pcm: Buffer; sampleRate: number },
        fields: Record<string, string>,
      ) => string | Promise<string>);
  /** Rate of the WAV /audio/speech answers (OpenAI's is 24 kHz). */
  speechSampleRate?: number;
}

export interface LoopbackSpeechServer {
  /** e.g. http://127.0.0.1:41234/v1 — what STT_BASE_URL / TTS_BASE_URL take. */
  baseUrl: string;
  requests: RecordedSpeechRequest[];
  override: SpeechServerOverride | null;
  /** Most requests handled at the same time so far. */
  maxConcurrent: number;
  close(): Promise<void>;
}

const MALE_OPENAI_VOICES = new Set(['onyx', 'echo', 'fable', 'ash']);

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startLoopbackSpeechServer(
  options: LoopbackSpeechServerOptions = {},
): Promise<LoopbackSpeechServer> {
  let flite: SpeechSynthesizer | null = null;
  let active = 0;
  const state: LoopbackSpeechServer = {
    baseUrl: '',
    requests: [],
    override: null,
    maxConcurrent: 0,
    close: async () => {},
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = (request.url ?? '').replace(/\?.*$/, '');
    const contentType = request.headers['content-type'] ?? '';
    const record: RecordedSpeechRequest = {
      path,
      authorization: request.headers.authorization ?? null,
      contentType,
      fields: {},
      audio: null,
      receivedAt: performance.now(),
    };
    state.requests.push(record);
    const override = state.override;
    if (override?.delayMs) await new Promise((resolve) => setTimeout(resolve, override.delayMs));
    if (override && (override.status !== undefined || override.body !== undefined)) {
      response
        .writeHead(override.status ?? 200, { 'content-type': override.contentType ?? 'application/json' })
        .end(override.body ?? '');
      return;
    }
    if (request.method !== 'POST') return json(response, 405, { error: { message: 'POST only' } });
    if (options.apiKey && record.authorization !== `Bearer ${options.apiKey}`) {
      return json(response, 401, {
        error: { message: 'Incorrect API key provided', code: 'invalid_api_key' },
      });
    }
    if (path === '/v1/audio/transcriptions') return transcriptions(body, contentType, record, response);
    if (path === '/v1/audio/speech') return speech(body, record, response);
    json(response, 404, { error: { message: `no route ${path}` } });
  }

  async function transcriptions(
    body: Buffer,
    contentType: string,
    record: RecordedSpeechRequest,
    response: ServerResponse,
  ): Promise<void> {
    let form: FormData;
    try {
      // undici's multipart parser (the one behind fetch) reads the upload.
      form = await new Response(new Uint8Array(body), {
        headers: { 'content-type': contentType },
      }).formData();
    } catch {
      return json(response, 400, { error: { message: 'expected multipart/form-data' } });
    }
    const file = form.get('file');
    form.forEach((value, name) => {
      if (typeof value === 'string') record.fields[name] = value;
    });
    if (!(file instanceof Blob)) return json(response, 400, { error: { message: 'file is required' } });
    if (options.sttModel && record.fields.model !== options.sttModel) {
      return json(response, 404, { error: { message: `model ${record.fields.model} not found` } });
    }
    try {
      record.audio = decodeWav(Buffer.from(await file.arrayBuffer()));
    } catch (error) {
      return json(response, 400, { error: { message: `unreadable audio: ${(error as Error).message}` } });
    }
    const transcribe = options.transcribe ?? 'hello there';
    const text = typeof transcribe === 'string' ? transcribe : await transcribe(record.audio, record.fields);
    json(response, 200, { text });
  }

  async function speech(
    body: Buffer,
    record: RecordedSpeechRequest,
    response: ServerResponse,
  ): Promise<void> {
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return json(response, 400, { error: { message: 'expected JSON' } });
    }
    for (const [name, value] of Object.entries(payload)) record.fields[name] = String(value);
    if (typeof payload.input !== 'string' || typeof payload.voice !== 'string') {
      return json(response, 400, { error: { message: 'input and voice are required' } });
    }
    if (options.ttsModel && payload.model !== options.ttsModel) {
      return json(response, 404, { error: { message: `model ${String(payload.model)} not found` } });
    }
    flite ??= createFliteSynthesizer();
    const male = MALE_OPENAI_VOICES.has(payload.voice);
    const audio = await flite.synthesize(payload.input, {
      ttsVoice: null,
      gender: male ? 'male' : 'female',
      voiceId: null,
      language: 'en-US',
    });
    const rate = options.speechSampleRate ?? 24_000;
    const pcm = resamplePcm(audio.pcm, audio.sampleRate, rate);
    if (payload.response_format === 'pcm') {
      response.writeHead(200, { 'content-type': `audio/pcm;rate=${rate}` }).end(pcm);
      return;
    }
    response.writeHead(200, { 'content-type': 'audio/wav' }).end(encodeWav(pcm, rate));
  }

  const server = createServer((request, response) => {
    active++;
    state.maxConcurrent = Math.max(state.maxConcurrent, active);
    handle(request, response)
      .catch((error: Error) => {
        if (!response.headersSent) json(response, 500, { error: { message: error.message } });
        else response.destroy();
      })
      .finally(() => {
        active--;
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await flite?.close();
  };
  return state;
}
