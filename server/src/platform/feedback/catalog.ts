/**
 * The post-call feedback checklists: stable keys (stored and sent by clients) with display labels
 * (shown in the dashboard and the meeting room). Keys are only ever added, never renamed.
 */
export interface CatalogEntry {
  key: string;
  label: string;
}

export const RATINGS = [
  { key: 'good', label: 'It went well' },
  { key: 'had_issues', label: 'I had some issues' },
] as const satisfies readonly CatalogEntry[];

export const VIDEO_ISSUES = [
  { key: 'freezes', label: 'The video froze' },
  { key: 'audio_dropouts', label: 'The audio dropped out' },
  { key: 'lip_sync', label: 'Lips were out of sync with the voice' },
  { key: 'echo', label: 'I heard an echo' },
  { key: 'low_resolution', label: 'The video was blurry or low resolution' },
  { key: 'distorted_audio', label: 'The voice sounded distorted or robotic' },
  { key: 'connection_lost', label: 'The connection dropped' },
  { key: 'camera_or_mic', label: 'My camera or microphone did not work' },
  { key: 'other', label: 'Something else (tell us in the comment)' },
] as const satisfies readonly CatalogEntry[];

export const AGENT_ISSUES = [
  { key: 'interrupting', label: 'It interrupted me' },
  { key: 'slow_replies', label: 'It was slow to reply' },
  { key: 'off_script', label: 'It went off-script' },
  { key: 'repetitive', label: 'It repeated itself' },
  { key: 'unnatural_voice', label: 'The voice sounded unnatural' },
  { key: 'misunderstood', label: 'It misunderstood what I said' },
  { key: 'wrong_information', label: 'It gave wrong or made-up information' },
  { key: 'ended_early', label: 'It ended the call too early' },
  { key: 'other', label: 'Something else (tell us in the comment)' },
] as const satisfies readonly CatalogEntry[];

export type Rating = (typeof RATINGS)[number]['key'];
export type VideoIssue = (typeof VIDEO_ISSUES)[number]['key'];
export type AgentIssue = (typeof AGENT_ISSUES)[number]['key'];

export const keysOf = <T extends readonly CatalogEntry[]>(entries: T) =>
  entries.map((entry) => entry.key) as Array<T[number]['key']>;
