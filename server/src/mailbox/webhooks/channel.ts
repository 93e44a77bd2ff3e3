/** The mailbox's channel of the shared delivery engine: its deliveries carry this name. */
export const MAILBOX_CHANNEL = 'mailbox';
