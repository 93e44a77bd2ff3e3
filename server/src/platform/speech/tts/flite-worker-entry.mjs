// Entry point of the Flite worker thread. tsx installs its TypeScript loader on the main thread
// only, so the worker registers it itself before loading the TypeScript worker module.
import { register } from 'tsx/esm/api';

register();
await import('./flite-worker.ts');
