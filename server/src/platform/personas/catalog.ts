// The built-in catalog of voices and avatars. Shipped in the repository (no table): ids are stable
// UUIDs, so personas store them and a later release can add entries without a migration.
import type { Gender } from '../scenarios/tables.ts';

export interface Voice {
  id: string;
  name: string;
  gender: Gender;
  /** BCP 47 language tag the voice speaks. */
  language: string;
  description: string;
  /**
   * Substrings of `SpeechSynthesisVoice.name` values that fit this voice, best first
   * (Chrome, Edge, Safari/macOS, Windows). The meeting room picks the first installed match,
   * then any voice of `language`.
   */
  browser_voice_hints: string[];
  /** Voice name sent to an OpenAI-compatible text-to-speech endpoint. */
  tts_voice: string;
}

export interface Avatar {
  id: string;
  name: string;
  gender: Gender;
  /** File under /assets/avatars/ served by the platform. */
  file: string;
}

export const VOICES: readonly Voice[] = Object.freeze([
  {
    id: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e01',
    name: 'Ava',
    gender: 'female',
    language: 'en-US',
    description: 'Warm, clear American English; a good default for interviews and coaching.',
    browser_voice_hints: ['Google US English', 'Microsoft Aria', 'Microsoft Jenny', 'Samantha', 'Zira'],
    tts_voice: 'nova',
  },
  {
    id: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e02',
    name: 'Noah',
    gender: 'male',
    language: 'en-US',
    description: 'Calm, steady American English; a good default for interviews and negotiations.',
    browser_voice_hints: ['Microsoft Guy', 'Microsoft Andrew', 'Microsoft David', 'Alex', 'Fred'],
    tts_voice: 'onyx',
  },
  {
    id: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e03',
    name: 'Olivia',
    gender: 'female',
    language: 'en-GB',
    description: 'Crisp British English with a professional tone.',
    browser_voice_hints: ['Google UK English Female', 'Microsoft Sonia', 'Microsoft Libby', 'Kate', 'Serena'],
    tts_voice: 'shimmer',
  },
  {
    id: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e04',
    name: 'Oliver',
    gender: 'male',
    language: 'en-GB',
    description: 'Measured British English; suits senior stakeholders and panel interviews.',
    browser_voice_hints: ['Google UK English Male', 'Microsoft Ryan', 'Microsoft George', 'Daniel', 'Oliver'],
    tts_voice: 'fable',
  },
  {
    id: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e05',
    name: 'Maya',
    gender: 'female',
    language: 'en-US',
    description: 'Bright and upbeat; suits customers, brainstorming partners and friendly coaches.',
    browser_voice_hints: ['Microsoft Emma', 'Microsoft Ava', 'Google US English', 'Allison', 'Ava'],
    tts_voice: 'coral',
  },
  {
    id: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e06',
    name: 'Ethan',
    gender: 'male',
    language: 'en-US',
    description: 'Energetic and direct; suits sales role-plays and blunt stakeholders.',
    browser_voice_hints: ['Microsoft Brian', 'Microsoft Christopher', 'Microsoft Mark', 'Tom', 'Aaron'],
    tts_voice: 'echo',
  },
]);

export const AVATARS: readonly Avatar[] = Object.freeze([
  { id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a01', name: 'Amara', gender: 'female', file: 'amara.svg' },
  { id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a02', name: 'Elena', gender: 'female', file: 'elena.svg' },
  { id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a03', name: 'Mei', gender: 'female', file: 'mei.svg' },
  { id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a04', name: 'Daniel', gender: 'male', file: 'daniel.svg' },
  { id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a05', name: 'James', gender: 'male', file: 'james.svg' },
  { id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a06', name: 'Omar', gender: 'male', file: 'omar.svg' },
]);

/** Public path prefix of the avatar images (outside /v1: images are loaded without credentials). */
export const AVATAR_ASSET_PREFIX = '/assets/avatars/';

/** The voice a persona gets when it names none: the first catalog voice of its gender. */
export const DEFAULT_VOICE: Readonly<Record<Gender | 'unspecified', string>> = Object.freeze({
  female: VOICES[0]!.id,
  male: VOICES[1]!.id,
  unspecified: VOICES[0]!.id,
});

export function defaultVoiceId(gender: Gender | null): string {
  return DEFAULT_VOICE[gender ?? 'unspecified'];
}

export function isDefaultVoice(voiceId: string): boolean {
  return Object.values(DEFAULT_VOICE).includes(voiceId);
}

export const findVoice = (id: string): Voice | undefined => VOICES.find((voice) => voice.id === id);
export const findAvatar = (id: string): Avatar | undefined => AVATARS.find((avatar) => avatar.id === id);

export function avatarImageUrl(publicUrl: string, avatar: Avatar): string {
  return `${publicUrl}${AVATAR_ASSET_PREFIX}${avatar.file}`;
}

export function renderVoice(voice: Voice) {
  return {
    id: voice.id,
    name: voice.name,
    gender: voice.gender,
    language: voice.language,
    description: voice.description,
    browser_voice_hints: [...voice.browser_voice_hints],
    tts_voice: voice.tts_voice,
  };
}

export function renderAvatar(publicUrl: string, avatar: Avatar) {
  return {
    id: avatar.id,
    name: avatar.name,
    gender: avatar.gender,
    image_url: avatarImageUrl(publicUrl, avatar),
  };
}
