// @echogarden/fvad-wasm ships an Emscripten factory without type declarations; segmenter.ts
// describes the few exports it uses.
declare module '@echogarden/fvad-wasm' {
  const createFvadModule: () => Promise<unknown>;
  export default createFvadModule;
}
