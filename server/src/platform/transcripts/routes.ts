import { Type } from 'typebox';
import { PageQuery } from '../../core/http/pagination.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { ScenarioTranscripts, Transcript, TranscriptSentences } from './schemas.ts';
import type { TranscriptService } from './service.ts';

const tags = ['Transcripts'];

export const transcriptRoutes: RouteModule<{ meetings: { transcripts: TranscriptService } }> = (
  app,
  { meetings },
) => {
  const { transcripts } = meetings;
  app.get(
    '/transcripts/meeting/:meetingId',
    {
      schema: {
        tags,
        operationId: 'listMeetingTranscripts',
        summary: 'The non-sentenced transcript(s) of a meeting: full text, status and language.',
        params: Type.Object({ meetingId: Type.String() }),
        response: withErrors({ 200: Type.Array(Transcript) }),
      },
    },
    async (request) => transcripts.forMeeting(request.principal, request.params.meetingId),
  );

  app.get(
    '/sentenced-transcripts/scenario/:scenarioId',
    {
      schema: {
        tags,
        operationId: 'listScenarioSentencedTranscripts',
        summary:
          'Every meeting of a scenario with its sentenced transcript, newest first. Send `limit` or `cursor` to page the meetings.',
        params: Type.Object({ scenarioId: Type.String() }),
        querystring: PageQuery,
        response: withErrors({ 200: ScenarioTranscripts }),
      },
    },
    async (request) => transcripts.forScenario(request.principal, request.params.scenarioId, request.query),
  );

  app.get(
    '/sentenced-transcripts/:transcriptId/:meetingId/:scenarioId',
    {
      schema: {
        tags,
        operationId: 'getSentencedTranscript',
        summary: 'The sentences of one transcript, with its meeting and scenario.',
        params: Type.Object({
          transcriptId: Type.String(),
          meetingId: Type.String(),
          scenarioId: Type.String(),
        }),
        response: withErrors({ 200: TranscriptSentences }),
      },
    },
    async (request) =>
      transcripts.sentences(
        request.principal,
        request.params.transcriptId,
        request.params.meetingId,
        request.params.scenarioId,
      ),
  );
};
