export type { ComposedReply, OfflineScriptContext, ScriptEndReason } from './composer.ts';
export { composeReply } from './composer.ts';
export { chunkText, createOfflineScriptEngine } from './engine.ts';
export type { ScriptStep, ScriptStepOrigin } from './script.ts';
export { MAX_STEPS, parseScript } from './script.ts';
export type { WelcomeInput } from './welcome.ts';
export { generateWelcomeMessage } from './welcome.ts';
