import { jsonResource, type McpResourceTemplate } from '../../core/mcp/tool.ts';

export const scenarioExportUri = (id: string) => `understudy://scenarios/${id}/export`;
export const meetingTranscriptUri = (id: string) => `understudy://meetings/${id}/transcript`;
export const meetingAnalysisUri = (id: string) => `understudy://meetings/${id}/analysis`;

/** What a model reads rather than calls; each read is the REST GET of the same document. */
export const platformResources: McpResourceTemplate[] = [
  jsonResource({
    uriTemplate: 'understudy://scenarios/{id}/export',
    name: 'scenario-export',
    title: 'Scenario export',
    description:
      'A scenario with its persona, goals, guardrails and custom functions as one JSON document (no secrets).',
    path: ({ id }) => `/v1/scenarios/${id}/export`,
  }),
  jsonResource({
    uriTemplate: 'understudy://meetings/{id}/transcript',
    name: 'meeting-transcript',
    title: 'Meeting transcript',
    description: 'The transcript of a meeting: full text, status and language.',
    path: ({ id }) => `/v1/transcripts/meeting/${id}`,
  }),
  jsonResource({
    uriTemplate: 'understudy://meetings/{id}/analysis',
    name: 'meeting-analysis',
    title: 'Meeting analysis',
    description:
      'The analysis of an ended meeting: the score on each goal with the reasoning, and the summary.',
    path: ({ id }) => `/v1/analyses/meeting/${id}`,
  }),
];
