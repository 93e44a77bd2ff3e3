// The conversation test set (docs/offline-engine.md): every case the engine is measured on.
import { BRAINSTORM } from './brainstorm.ts';
import { HAND_WRITTEN } from './hand-written.ts';
import { INTERVIEW } from './interview.ts';
import { SALES_DISCOVERY } from './sales-discovery.ts';
import { DANIEL, MAYA } from './seeded.ts';
import { STAKEHOLDER } from './stakeholder.ts';
import type { ConversationCase } from './types.ts';

export const CONVERSATIONS: readonly ConversationCase[] = [
  DANIEL,
  MAYA,
  SALES_DISCOVERY,
  STAKEHOLDER,
  BRAINSTORM,
  INTERVIEW,
  HAND_WRITTEN,
];
