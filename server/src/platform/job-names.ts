// Every platform job's name, declared once. A name is stored with each queued job, so it never
// changes: a renamed job would strand the ones already queued under the old name.
export const JOB_NAMES = {
  /** Runs what follows a meeting's end (transcript closed, recording published, analysis queued). */
  meetingFinalize: 'meeting.finalize',
  /** Scores a finished meeting against its scenario's goals. */
  analysisRun: 'analysis.run',
  /** Emails the meeting-ended notification once the analysis is stored. */
  notificationEmail: 'meeting.notification_email',
  /** Removes a deleted meeting's recording objects from storage. */
  meetingPurgeMedia: 'meeting.purge_media',
  /** Deletes ended meetings past their workspace's retention (meeting_retention_days). */
  meetingRetentionSweep: 'meeting.retention_sweep',
  /** E-mails an invitation link through SMTP_URL (docs/teams.md). */
  invitationEmail: 'team.invitation_email',
  /** E-mails each assigned person their practice link through SMTP_URL (docs/assignments.md). */
  assignmentEmail: 'assignment.practice_email',
} as const;
