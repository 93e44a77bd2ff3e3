// What the recogniser is told about a meeting (docs/speech.md, "Meeting vocabulary"): the text of
// its scenario as the author wrote it, from which the offline recogniser builds the meeting's own
// language model and finds its names and terms, and which an OpenAI-compatible recogniser gets as
// its prompt. It never leaves the service.
import type { RecognitionContext } from '../../speech/types.ts';
import type { MeetingContext } from '../context.ts';

export function recognitionContext(context: MeetingContext): RecognitionContext {
  const { scenario, persona, goals } = context;
  const parts = [
    scenario.name,
    scenario.description,
    persona && `${persona.name}, ${persona.job_title}.`,
    persona?.background,
    ...goals.flatMap((goal) => [goal.name, goal.description]),
    scenario.welcome_message,
    scenario.prompt,
  ];
  return {
    meetingId: context.meeting.id,
    vocabulary: parts.filter((part): part is string => Boolean(part?.trim())).join('\n'),
  };
}
