// Question sets used when a scenario's script yields no questions of its own.

export type ScenarioKind = 'interview' | 'roleplay' | 'upskill' | 'brainstorm' | 'general';

export function scenarioKind(scenarioType: string): ScenarioKind {
  const type = scenarioType.toLowerCase();
  if (type.includes('interview')) return 'interview';
  if (type.includes('role')) return 'roleplay';
  if (/upskill|coach|train|learn|practi[cs]e/.test(type)) return 'upskill';
  if (/brainstorm|ideat/.test(type)) return 'brainstorm';
  return 'general';
}

// None of these invite the participant to ask the persona questions: the engine can only deflect
// those, so such a step would loop.
export const DEFAULT_QUESTIONS: Record<ScenarioKind, readonly string[]> = {
  interview: [
    'Could you start by telling me a little about yourself and your background?',
    'What interests you about this role?',
    'Can you describe a challenging project you worked on and the part you played in it?',
    'Can you tell me about a time you disagreed with a colleague, and how you handled it?',
    'What would you want to achieve in your first few months in the role?',
    'Is there anything else you would like me to know about you?',
  ],
  roleplay: [
    'So, what did you want to talk to me about today?',
    'How would that actually help me in my situation?',
    'How does that compare with what I am doing today?',
    'What would it cost me, and what exactly is included?',
    'What happens if it does not work out the way you describe?',
    'What would the next steps be if I wanted to go ahead?',
  ],
  upskill: [
    'Which skill would you like to work on in this session?',
    'Can you describe a recent situation where that skill really mattered?',
    'What went well in that situation, and what would you do differently?',
    'What is one concrete thing you will try the next time it comes up?',
    'How will you know that it is working?',
  ],
  brainstorm: [
    'What problem are we trying to solve today?',
    'Who is most affected by this problem, and how?',
    'What ideas do you already have, even rough ones?',
    'If there were no constraints at all, what would you try?',
    'Which idea would you test first, and how would you test it?',
  ],
  general: [
    'What would you like to get out of this conversation?',
    'Can you tell me a bit about your current situation?',
    'What is the biggest challenge you are facing right now?',
    'What would a good outcome look like for you?',
    'What is the next step you would like to take?',
  ],
};
