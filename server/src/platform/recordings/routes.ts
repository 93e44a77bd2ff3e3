import { Type } from 'typebox';
import { Nullable, Timestamp, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import type { RecordingService } from './service.ts';

const tags = ['Recordings'];
const Params = Type.Object({ meetingId: Type.String() });

const RecordingWithThumbnail = Type.Object({
  success: Type.Literal(true),
  data: Type.Object(
    {
      recording_id: Type.String(),
      meeting_id: Type.String(),
      url: Type.String({ description: 'Signed media URL; expires at expires_at.' }),
      thumbnail_url: Nullable(
        Type.String({ description: 'Signed thumbnail image URL, when the room sent one.' }),
      ),
      content_type: Type.String({ examples: ['video/webm'] }),
      size_bytes: Type.Integer(),
      expires_at: Timestamp,
      created_at: Timestamp,
    },
    { $id: 'Recording', title: 'Recording' },
  ),
});

const RecordingUrl = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ url: Type.String(), expires_at: Timestamp }),
});

export const recordingRoutes: RouteModule<{ meetings: { recordings: RecordingService } }> = (
  app,
  { meetings },
) => {
  app.get(
    '/recordings/url-with-thumbnail/:meetingId',
    {
      schema: {
        tags,
        operationId: 'getRecordingWithThumbnail',
        summary:
          'The meeting recording’s signed URL and thumbnail URL (valid one hour). 404 until the recording is ready, usually minutes after the end.',
        params: Params,
        response: withErrors({ 200: RecordingWithThumbnail }),
      },
    },
    async (request) => ({
      success: true as const,
      data: await meetings.recordings.urls(request.principal, request.params.meetingId),
    }),
  );

  app.get(
    '/recordings/meeting/:meetingId',
    {
      schema: {
        tags,
        operationId: 'getRecordingUrl',
        summary: 'The meeting recording’s signed URL only (valid one hour).',
        params: Params,
        response: withErrors({ 200: RecordingUrl }),
      },
    },
    async (request) => {
      const recording = await meetings.recordings.urls(request.principal, request.params.meetingId);
      return { success: true as const, data: { url: recording.url, expires_at: recording.expires_at } };
    },
  );
};
