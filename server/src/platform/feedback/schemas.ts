import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';
import {
  AGENT_ISSUES,
  type AgentIssue,
  keysOf,
  RATINGS,
  type Rating,
  VIDEO_ISSUES,
  type VideoIssue,
} from './catalog.ts';

export const MAX_COMMENT = 2000;

const rating = Type.Unsafe<Rating>({
  type: 'string',
  enum: keysOf(RATINGS),
  description: '`good` or `had_issues`.',
});
const videoIssue = Type.Unsafe<VideoIssue>({ type: 'string', enum: keysOf(VIDEO_ISSUES) });
const agentIssue = Type.Unsafe<AgentIssue>({ type: 'string', enum: keysOf(AGENT_ISSUES) });

export const Feedback = Type.Object(
  {
    meeting_id: Type.String({ format: 'uuid' }),
    membership_id: Nullable(
      Type.String({ description: 'Who gave the answer, when given with a credential.' }),
    ),
    rating,
    video_issues: Type.Array(videoIssue),
    agent_issues: Type.Array(agentIssue),
    comment: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'MeetingFeedback', title: 'MeetingFeedback' },
);

export const SubmitFeedbackBody = Type.Object(
  {
    rating,
    video_issues: Type.Optional(
      Type.Array(videoIssue, {
        maxItems: 50,
        description: 'Call-quality checklist keys (see GET /meetings/feedback/catalog). Repeats are ignored.',
      }),
    ),
    agent_issues: Type.Optional(
      Type.Array(agentIssue, {
        maxItems: 50,
        description: 'AI-behaviour checklist keys (see GET /meetings/feedback/catalog). Repeats are ignored.',
      }),
    ),
    comment: Type.Optional(
      Nullable(
        Type.String({
          maxLength: MAX_COMMENT,
          description: 'Free text, up to 2,000 characters; encrypted at rest.',
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        rating: 'had_issues',
        video_issues: ['freezes', 'lip_sync'],
        agent_issues: ['interrupting'],
        comment: 'The avatar froze twice near the end.',
      },
      { rating: 'good' },
    ],
  },
);

const entry = Type.Object(
  { key: Type.String(), label: Type.String() },
  { $id: 'FeedbackCatalogEntry', title: 'FeedbackCatalogEntry' },
);

export const FeedbackCatalog = Type.Object(
  {
    ratings: Type.Array(entry),
    video_issues: Type.Array(entry),
    agent_issues: Type.Array(entry),
  },
  { $id: 'FeedbackCatalog', title: 'FeedbackCatalog' },
);

export const MeetingIdParams = Type.Object({ id: Type.String({ description: 'Meeting id (UUID).' }) });
