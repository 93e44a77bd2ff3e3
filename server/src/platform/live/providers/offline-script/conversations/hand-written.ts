// Written the way a customer writes a scenario in the editor: prose, second person, no headings,
// facts mixed with instructions. Nothing in it is shaped for the offline engine.
import type { ConversationCase } from './types.ts';

const PROMPT = `You're Bob Hartley, you own a small bakery in Leeds called Rise & Shine. You've been in business 9 years, 2 shops, 14 employees. The participant works for a web agency and is trying to find out what you need for a new website, so let them ask the questions.

Your current website is old, your nephew built it in 2015 and you can't update it yourself. You'd like people to be able to order birthday cakes online, that's the main thing. Right now cake orders come in by phone and about one in ten gets written down wrong. You don't really care about social media. Budget is tight, maybe 5k max. You want it live before Christmas because that's your busiest time of the year.

Be a bit skeptical, you got burned by an agency before who took a deposit and disappeared. Don't use technical words. If they use jargon, ask what it means.`;

export const HAND_WRITTEN: ConversationCase = {
  name: 'hand-written: bakery website (Bob)',
  handWritten: true,
  context: {
    personaName: 'Bob Hartley',
    jobTitle: 'Owner, Rise & Shine Bakery',
    demeanor: 'casual',
    background: null,
    scenarioName: 'Bakery website discovery',
    scenarioType: 'roleplay',
    prompt: PROMPT,
    welcomeMessage: null,
    participantName: 'Dana',
  },
  questions: [
    { ask: 'Can you tell me a little about your business?', expect: ['rise & shine'] },
    { ask: 'How long have you been going?', expect: ['9 years'] },
    { ask: 'How many staff do you have?', expect: ['14 employees'] },
    { ask: "What's wrong with the website you have now?", expect: ['nephew'] },
    { ask: 'What is the most important thing the new site should do?', expect: ['birthday cakes'] },
    { ask: 'How do cake orders reach you today?', expect: ['by phone'] },
    { ask: 'Do orders ever go wrong?', expect: ['one in ten'] },
    { ask: 'Do you want us to handle your social media too?', expect: ["don't really care"] },
    { ask: 'What kind of budget are you working with?', expect: ['5k'] },
    { ask: 'When would you want the site live?', expect: ['christmas'] },
    { ask: 'Have you worked with an agency before?', expect: ['disappeared'] },
  ],
};
