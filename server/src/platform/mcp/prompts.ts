import type { McpPrompt } from '../../core/mcp/tool.ts';
import { meetingAnalysisUri, meetingTranscriptUri, scenarioExportUri } from './resources.ts';

const link = (uri: string, name: string) => ({
  role: 'user' as const,
  content: { type: 'resource_link' as const, uri, name, mimeType: 'application/json' },
});

/** Ready-made tasks: the messages name the resources to read, the client fetches them. */
export const platformPrompts: McpPrompt[] = [
  {
    name: 'debrief-meeting',
    title: 'Debrief a practice meeting',
    description:
      'Walk the participant through how a practice meeting went, from its transcript and analysis.',
    arguments: [{ name: 'meeting_id', description: 'The meeting to debrief.', required: true }],
    messages: ({ meeting_id }) => [
      {
        role: 'user',
        content: {
          type: 'text',
          text: `Debrief practice meeting ${meeting_id}. Read its analysis (${meetingAnalysisUri(meeting_id!)}) and transcript (${meetingTranscriptUri(meeting_id!)}). Start with what went well, then take each goal in turn: the score, the moment in the transcript that earned it (quote it), and one concrete thing to do differently next time. End with the single most useful exercise for the next practice. If the analysis is not ready yet, say so and offer to re-run it with rerun_analysis once the meeting has ended.`,
        },
      },
      link(meetingAnalysisUri(meeting_id!), 'meeting-analysis'),
      link(meetingTranscriptUri(meeting_id!), 'meeting-transcript'),
    ],
  },
  {
    name: 'prepare-practice',
    title: 'Prepare for a practice meeting',
    description:
      'Brief a participant before a practice meeting: who they will meet and what they are scored on.',
    arguments: [{ name: 'scenario_id', description: 'The scenario to practise.', required: true }],
    messages: ({ scenario_id }) => [
      {
        role: 'user',
        content: {
          type: 'text',
          text: `Help me prepare for a practice meeting of scenario ${scenario_id}. Read its export (${scenarioExportUri(scenario_id!)}). Tell me who I will be talking to (the persona: role, personality, what they care about), the goals I am scored on and what a strong answer looks like for each, and three questions or objections to expect. Then offer to start the meeting with create_meeting.`,
        },
      },
      link(scenarioExportUri(scenario_id!), 'scenario-export'),
    ],
  },
];
