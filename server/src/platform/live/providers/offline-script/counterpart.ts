// How a persona the participant leads (a buyer, a patient, a landlord) meets what falls outside what
// it knows: a question it has no answer to, a dig, or a question that has nothing to do with why
// they are talking. The lines come from the other side of the table, in the persona's demeanor, and
// presume nothing about who it is (a patient has no team to ask). A persona that runs the session
// has its own lines (phrasing.ts: "let's keep the focus on you").
import { demeanorOf } from './phrasing.ts';

export interface CounterpartLines {
  /** Nothing the persona knows answers the question: non-committal, a redirect or a question back. */
  unknown: readonly string[];
  /** A dig at the persona, its company or its complaint. */
  rude: readonly string[];
  /** A question about a pastime, the news or private life. */
  offTopic: readonly string[];
}

const LINES: Record<ReturnType<typeof demeanorOf>, CounterpartLines> = {
  friendly: {
    unknown: [
      "Hm, I'm honestly not sure.",
      "Good question! I'd have to think about that one.",
      "I couldn't say off the top of my head, sorry.",
      "Ooh, that one I don't know, I'm afraid.",
    ],
    rude: ["Oh, that's a bit harsh! Let's keep it friendly.", "Ouch. Let's try to keep this constructive."],
    offTopic: ["Ha, that's one for another day!", "Ha, no idea, honestly! But let's get back to this."],
  },
  analytical: {
    unknown: [
      "I don't have a figure for that.",
      "I'd need to check before I gave you a number on that.",
      "I can't answer that precisely.",
      "I don't have reliable information on that.",
    ],
    rude: ["That isn't a useful way to look at it.", "I'd rather we kept to what matters."],
    offTopic: ["That's not something I've looked into.", "I'd rather keep to the matter at hand."],
  },
  empathetic: {
    unknown: [
      "I'm sorry, I really don't know.",
      "I wish I could tell you, but I'm not sure.",
      "Honestly, I don't know that one.",
      "I'm afraid I can't say.",
    ],
    rude: ["That's a little hurtful, to be honest.", "I'd appreciate it if we kept this respectful."],
    offTopic: ["Oh, I couldn't say, I'm afraid.", "I'm not sure, sorry. Can we get back to this?"],
  },
  curious: {
    unknown: [
      "Hm, I don't know. Why do you ask?",
      'No idea, actually. What makes you ask?',
      "I'm not sure. What do you think?",
      "I couldn't tell you, but I'm curious why it matters.",
    ],
    rude: ['Hm, why do you say that?', "That's a strong view. What makes you think so?"],
    offTopic: ["Funny you ask, but I couldn't tell you.", 'No idea! Anyway, back to what we were saying.'],
  },
  enthusiastic: {
    unknown: [
      "Ooh, I don't know that one!",
      "Great question, and I honestly don't know!",
      "Ha, you've got me there!",
      'No idea, but I love that you asked!',
    ],
    rude: ["Oh! Well, I'm still hopeful we can sort this out.", "Ha, tough crowd! Let's keep going."],
    offTopic: ['Ha, I wish I knew!', "Ooh, no idea, but let's get back to this!"],
  },
  critical: {
    unknown: [
      "I'm not going to guess at that.",
      'Why does that matter here?',
      "I don't have an answer for you on that.",
      "That's not what I'm here to talk about.",
    ],
    rude: ["That attitude isn't helping your case.", "If that's how you see it, we won't get far."],
    offTopic: ["Let's stick to why we're talking.", "I don't see what that has to do with this."],
  },
  casual: {
    unknown: ['No clue, honestly.', "Couldn't tell you, to be fair.", 'Beats me.', 'Hm, not sure, really.'],
    rude: ['Ha, easy now.', 'Alright, no need for that.'],
    offTopic: ['Ha, no clue, mate.', "Couldn't tell you! Anyway."],
  },
  blunt: {
    unknown: ["Don't know.", 'No idea.', "Can't say.", 'Not something I know.'],
    rude: ["That's not helpful.", 'Not the way to talk to me.'],
    offTopic: ['Not relevant.', 'No idea. Next.'],
  },
  assertive: {
    unknown: [
      "I don't know, and I won't guess.",
      "That's not something I can answer.",
      "I don't have that. Ask me something I can help with.",
      "I can't answer that one.",
    ],
    rude: ["I won't be spoken to like that.", "Let's keep this professional."],
    offTopic: ["That's beside the point.", "Let's stay on topic."],
  },
  neutral: {
    unknown: [
      "I'm not sure about that.",
      "I don't know, to be honest.",
      "I couldn't say.",
      "I don't have an answer to that.",
    ],
    rude: ["I'd rather we kept this civil.", "That's not really fair."],
    offTopic: ["I couldn't say.", "I'm not sure that's relevant here."],
  },
};

export function counterpartLines(demeanor: string | null): CounterpartLines {
  return LINES[demeanorOf(demeanor)];
}
