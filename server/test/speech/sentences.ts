// A fixed set of meeting sentences for recogniser accuracy (tests and bench/voice): what a
// participant or a persona says in an interview, a sales call or a coaching session.
export const MEETING_SENTENCES: readonly string[] = Object.freeze([
  'I have five years of experience leading the support team.',
  'Tell me about a time you disagreed with your manager.',
  'We shipped the new billing system two weeks ahead of schedule.',
  'What are the biggest challenges facing your team right now?',
  'I would like to understand the pricing before we sign the contract.',
  'Thank you for your time today.',
  'My greatest strength is solving problems with the customer.',
  'Could you walk me through your last project?',
]);
