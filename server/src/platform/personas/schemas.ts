import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

export const DEMEANORS = [
  'friendly',
  'analytical',
  'empathetic',
  'curious',
  'enthusiastic',
  'critical',
  'casual',
  'blunt',
  'assertive',
  'neutral',
] as const;
export const GENDERS = ['male', 'female'] as const;

export const Demeanor = Type.Enum(DEMEANORS, { description: 'How the persona behaves. Default `neutral`.' });
export const Gender = Type.Enum(GENDERS, {
  description: 'Chooses the default voice; an avatar sets it to the avatar’s gender.',
});

export const NAME_MAX = 100;
export const JOB_TITLE_MAX = 100;
export const BACKGROUND_MAX = 5000;

const fields = {
  name: Type.String({ minLength: 1, maxLength: NAME_MAX, description: 'Full name of the AI persona.' }),
  job_title: Type.String({ minLength: 1, maxLength: JOB_TITLE_MAX, description: 'Shown to participants.' }),
  demeanor: Demeanor,
  background: Nullable(Type.String({ maxLength: BACKGROUND_MAX, description: 'Detailed background.' })),
  gender: Nullable(Gender),
  voice_id: Type.String({
    description: 'A voice id from GET /voices. Omitted: the default voice of the gender.',
  }),
  avatar_id: Nullable(
    Type.String({ description: 'An avatar id from GET /avatars; applies its image URL and gender.' }),
  ),
};

const example = {
  name: 'Dana Whitfield',
  job_title: 'VP of Engineering',
  demeanor: 'analytical',
  background: 'Leads a 60-person platform organisation; values clear trade-offs and measurable outcomes.',
  gender: 'female',
  avatar_id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a02',
};

export const CreatePersonaBody = Type.Object(
  {
    name: fields.name,
    job_title: fields.job_title,
    demeanor: Type.Optional(fields.demeanor),
    background: Type.Optional(fields.background),
    gender: Type.Optional(fields.gender),
    voice_id: Type.Optional(fields.voice_id),
    avatar_id: Type.Optional(fields.avatar_id),
  },
  { additionalProperties: false, examples: [example] },
);

export const UpdatePersonaBody = Type.Object(
  {
    name: Type.Optional(fields.name),
    job_title: Type.Optional(fields.job_title),
    demeanor: Type.Optional(fields.demeanor),
    background: Type.Optional(fields.background),
    gender: Type.Optional(fields.gender),
    voice_id: Type.Optional(Nullable(fields.voice_id)),
    avatar_id: Type.Optional(fields.avatar_id),
  },
  {
    additionalProperties: false,
    examples: [{ demeanor: 'blunt', voice_id: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e03' }],
  },
);

export const SetAvatarBody = Type.Object(
  { avatar_id: Type.String({ description: 'An avatar id from GET /avatars.' }) },
  { additionalProperties: false, examples: [{ avatar_id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a04' }] },
);

export const Persona = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    job_title: Type.String(),
    demeanor: Demeanor,
    background: Nullable(Type.String()),
    gender: Nullable(Gender),
    voice_id: Type.String(),
    avatar_id: Nullable(Type.String()),
    avatar_url: Nullable(Type.String({ description: 'Image of the avatar, served by this service.' })),
    membership_id: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'Persona',
    title: 'Persona',
    examples: [
      {
        id: '3a6f9f3e-2a1b-4c5d-8e9f-0a1b2c3d4e5f',
        name: 'Dana Whitfield',
        job_title: 'VP of Engineering',
        demeanor: 'analytical',
        background: 'Leads a 60-person platform organisation.',
        gender: 'female',
        voice_id: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e01',
        avatar_id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a02',
        avatar_url: 'https://api.example.com/assets/avatars/elena.svg',
        membership_id: '9d2c4f1e-7b6a-4c3d-8e2f-1a0b9c8d7e6f',
        created_at: '2026-11-01T12:00:00.000Z',
        updated_at: '2026-11-01T12:00:00.000Z',
      },
    ],
  },
);

export const Voice = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    gender: Gender,
    language: Type.String({ examples: ['en-US'] }),
    description: Type.String(),
    browser_voice_hints: Type.Array(Type.String(), {
      description:
        'Substrings of browser speech-synthesis voice names that fit, best first; the meeting room uses the first installed match.',
    }),
    tts_voice: Type.String({ description: 'Voice name used with an OpenAI-compatible text-to-speech API.' }),
  },
  {
    $id: 'Voice',
    title: 'Voice',
    examples: [
      {
        id: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e01',
        name: 'Ava',
        gender: 'female',
        language: 'en-US',
        description: 'Warm, clear American English.',
        browser_voice_hints: ['Google US English', 'Microsoft Aria', 'Samantha'],
        tts_voice: 'nova',
      },
    ],
  },
);

export const Avatar = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    gender: Gender,
    image_url: Type.String({ examples: ['https://api.example.com/assets/avatars/elena.svg'] }),
  },
  {
    $id: 'Avatar',
    title: 'Avatar',
    examples: [
      {
        id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a02',
        name: 'Elena',
        gender: 'female',
        image_url: 'https://api.example.com/assets/avatars/elena.svg',
      },
    ],
  },
);
