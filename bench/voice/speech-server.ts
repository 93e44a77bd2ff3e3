// The loopback OpenAI-compatible speech server of bench/voice, in its own process so its work does
// not share an event loop with the service or the client: the one the adapter tests use
// (server/test/speech/loopback-speech-server.ts). Synthesis is real (Flite, answered as a 24 kHz
// WAV like OpenAI's); every transcription answers TRANSCRIPT, so the recogniser's side costs only
// the upload and the parse, as with a fast remote recogniser. Prints one JSON line with its URL.
import { startLoopbackSpeechServer } from '../../server/test/speech/loopback-speech-server.ts';

const server = await startLoopbackSpeechServer({ transcribe: process.env.TRANSCRIPT ?? 'hello there' });
console.log(JSON.stringify({ baseUrl: server.baseUrl }));
process.on('SIGTERM', async () => {
  await server.close();
  process.exit(0);
});
