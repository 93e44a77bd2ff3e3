// @echogarden/rnnoise-wasm ships an Emscripten factory without type declarations; voice-activity.ts
// describes the few exports it uses.
declare module '@echogarden/rnnoise-wasm' {
  const createRNNoiseModule: () => Promise<unknown>;
  export default createRNNoiseModule;
}
