export type { MailboxDeps } from '../app/mailbox-deps.ts';
