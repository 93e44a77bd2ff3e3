// How each persona demeanor phrases the engine's moves. Placeholders: {echo} is a phrase taken
// from the participant's answer; {name} is ", <participant name>" or empty.
import { DEMEANORS } from '../../../personas/schemas.ts';
import { normalize } from './text.ts';

type Demeanor = (typeof DEMEANORS)[number];

export interface Phrasing {
  /** Acknowledgement that echoes part of the answer ({echo}). */
  echo: readonly string[];
  /** Acknowledgement when nothing in the answer is worth echoing. */
  plain: readonly string[];
  /** Follow-ups to a short or vague answer; recognised later in the transcript, so no placeholders. */
  followUps: readonly string[];
  /** Lead-in before the next scripted question. */
  next: readonly string[];
  /** Lead-in before the first scripted question. */
  first: readonly string[];
  repeat: readonly string[];
  silence: readonly string[];
  skip: readonly string[];
  /** Lead-in back to the pending question after answering the participant. */
  resume: readonly string[];
  /** The script is complete. Recognised later, so a placeholder may only follow the opening words. */
  closing: readonly string[];
  /** The participant ends the session early. Recognised later, like closing. */
  goodbye: readonly string[];
  /** The participant speaks again after the session was closed. */
  afterClose: readonly string[];
}

export const PHRASING: Record<Demeanor, Phrasing> = {
  friendly: {
    echo: ['Thanks for sharing that. You mentioned {echo}.', "That's helpful, thank you. So, {echo}."],
    plain: ['Thanks for sharing that.', 'Got it, thank you.'],
    followUps: ['Could you tell me a little more about that?', 'Would you mind sharing a specific example?'],
    next: ["Next, I'd love to hear this:", "Let's keep going."],
    first: ["Great, let's get started{name}.", "Lovely to meet you{name}. Let's dive in."],
    repeat: ['Of course! Here it is again:', 'Sure, happy to repeat that.'],
    silence: ['No rush, take your time.', 'Take all the time you need.'],
    skip: ["No problem at all, let's move on.", 'Sure, we can skip that one.'],
    resume: ['Now, back to my question:', 'So, coming back to what I asked:'],
    closing: [
      'That covers everything I wanted to ask. Thank you so much for your time{name}, it was a pleasure talking with you!',
      "And that's all of my questions. Thanks so much{name}, I really enjoyed our conversation!",
    ],
    goodbye: [
      "Of course, let's stop here. Thanks for your time{name}, and take care!",
      'No problem at all. Thank you{name}, and have a great day!',
    ],
    afterClose: ["We've already wrapped up, but thanks again. Take care!"],
  },
  analytical: {
    echo: ['Noted: {echo}.', "Understood. So, {echo}; that's a useful data point."],
    plain: ['Noted.', 'Understood.'],
    followUps: [
      'Can you be more specific? What exactly happened, and what was the result?',
      'What concrete evidence or numbers can you share on that?',
    ],
    next: ['Next question:', 'Moving on to the next point:'],
    first: ["Let's begin{name}.", "Let's start with the first question{name}."],
    repeat: ['Certainly. The question was:', 'Let me restate the question:'],
    silence: ['Take a moment to think it through.', 'No need to rush; a structured answer is fine.'],
    skip: ["Understood, we'll skip that one.", "Fine, let's move to the next point."],
    resume: ['Returning to my question:', 'Back to the question at hand:'],
    closing: [
      'That completes the questions I had. Thank you for your time{name}.',
      'That covers all the points on my list. Thanks for the clear answers{name}.',
    ],
    goodbye: [
      "Understood, we'll end here. Thank you for your time{name}.",
      "Fine, let's stop at this point. Thank you{name}.",
    ],
    afterClose: ["We've already covered everything on my list. Thank you again."],
  },
  empathetic: {
    echo: [
      'Thank you for being so open about that. You mentioned {echo}.',
      'I appreciate you sharing that. So, {echo}; that makes sense.',
    ],
    plain: ['Thank you for sharing that.', 'I appreciate your honesty.'],
    followUps: [
      'Could you share a little more about what that was like for you?',
      'Would you feel comfortable telling me a bit more about that?',
    ],
    next: ["If you're ready, here's my next question:", "Let's gently move on."],
    first: [
      "Thank you for being here{name}. Let's start whenever you're comfortable.",
      "It's good to meet you{name}. Let's begin.",
    ],
    repeat: ['Of course, let me say that again:', "Absolutely, here's the question again:"],
    silence: [
      "It's okay to take your time. There's no wrong answer here.",
      "Take a breath; there's no pressure.",
    ],
    skip: ["That's completely fine, we can skip it.", "Of course, let's leave that one."],
    resume: [
      "If it's alright, let's come back to my question:",
      "Whenever you're ready, back to what I asked:",
    ],
    closing: [
      "We've reached the end of my questions. Thank you for sharing so openly{name}; I really appreciate it.",
      "That's everything I wanted to explore today. Thank you for your openness{name}; take care.",
    ],
    goodbye: [
      'Of course, we can stop here. Thank you for your time{name}, and take good care.',
      "That's completely fine, let's end here. Thank you{name}, take care of yourself.",
    ],
    afterClose: ["We've already finished for today. Thank you again, and take care."],
  },
  curious: {
    echo: ['Interesting! You mentioned {echo}.', "Oh, that's intriguing. So, {echo}."],
    plain: ['Interesting.', 'Hm, interesting.'],
    followUps: ['What makes you say that?', 'Could you unpack that a little for me?'],
    next: ["Here's what I'm wondering next:", 'That makes me curious about something else.'],
    first: [
      "Great to meet you{name}. I'm curious to hear your thoughts, so let's start.",
      "Let's jump in{name}. I have a question I'm really curious about.",
    ],
    repeat: ['Sure! What I asked was:', 'Of course, let me repeat it:'],
    silence: ["Take your time; I'm curious what you'll say.", 'No hurry, have a think.'],
    skip: ["Fair enough, let's explore something else.", "Sure, let's skip that one."],
    resume: ['Now, back to what I was curious about:', 'Anyway, coming back to my question:'],
    closing: [
      "I've asked everything I was curious about. Thank you for your time{name}; this was fascinating.",
      "That's the last of my questions. Thanks for indulging my curiosity{name}!",
    ],
    goodbye: [
      "Sure, let's stop here. Thanks for your time{name}!",
      "Okay, we'll end it here. Thank you{name}, this was interesting.",
    ],
    afterClose: ["We've already wrapped up, but thanks again for the conversation."],
  },
  enthusiastic: {
    echo: ['Fantastic! You mentioned {echo}.', "That's great to hear! So, {echo}."],
    plain: ['Awesome, thank you!', 'Great, thanks!'],
    followUps: ['Ooh, tell me more about that!', "Can you give me an example? I'd love to hear it!"],
    next: ['Okay, next one!', "Alright, here's another one!"],
    first: ["Awesome{name}, let's get started!", "I'm excited to do this{name}! Let's kick things off."],
    repeat: ['Sure thing! Here it is again:', 'Absolutely! Once more:'],
    silence: ['No worries, take your time!', 'Take a second, no pressure at all!'],
    skip: ["No problem, let's keep the momentum going!", 'Sure, on to the next one!'],
    resume: ['Okay, back to my question!', 'Now, back to the fun part:'],
    closing: [
      "And that's a wrap on my questions! Thank you so much{name}, this was great!",
      "That's everything I had! Thanks a ton for your time{name}, really enjoyed it!",
    ],
    goodbye: [
      "Sure thing, let's stop here! Thanks so much{name}!",
      'No problem! Thanks for your time{name}, take care!',
    ],
    afterClose: ["We're all wrapped up already, but thanks again, this was great!"],
  },
  critical: {
    echo: [
      "You said {echo}. I'm not fully convinced yet.",
      'So, {echo}. That needs to hold up under scrutiny.',
    ],
    plain: ['Okay.', 'I see.'],
    followUps: [
      "That's quite vague. Can you back it up with a concrete example?",
      'What specifically did you do, and how do you know it worked?',
    ],
    next: ["Let's move on. Next:", 'Next question:'],
    first: ["Let's get started{name}.", "Alright{name}, let's see how this goes."],
    repeat: ["Fine, I'll repeat it:", 'The question was:'],
    silence: ["I'm waiting for your answer.", 'Take a moment, but I do need an answer.'],
    skip: ["Skipping it then, though I'd have liked an answer.", "Fine, we'll move on."],
    resume: ['Now, my question again:', 'Back to what I asked:'],
    closing: [
      "That's all I needed to ask. Thank you for your time{name}.",
      'That concludes my questions. Thank you{name}.',
    ],
    goodbye: ["Alright, we'll stop here. Thank you{name}.", "Understood, let's end it there{name}."],
    afterClose: ["We're already done here. Thank you."],
  },
  casual: {
    echo: ['Cool, so {echo}.', 'Nice. You mentioned {echo}.'],
    plain: ['Cool.', 'Gotcha.'],
    followUps: ['Say more about that?', 'Got an example?'],
    next: ['Okay, next up:', 'Cool, so next thing:'],
    first: ["Hey{name}, let's get into it.", "Alright{name}, let's kick off."],
    repeat: ['Sure, here it is again:', 'Yep, no problem:'],
    silence: ['No rush, take your time.', "Take your time, it's all good."],
    skip: ["Sure, let's skip it.", 'No worries, moving on.'],
    resume: ['Anyway, back to my question:', 'So, back to what I asked:'],
    closing: [
      "Alright, that's everything I had. Thanks for your time{name}, catch you later!",
      "That's all my questions. Thanks{name}, this was fun!",
    ],
    goodbye: ["Sure, let's wrap it here. Thanks{name}, see you!", "No worries, let's call it. Cheers{name}!"],
    afterClose: ["We're all done already. Thanks again, see you!"],
  },
  blunt: {
    echo: ['Right: {echo}.', 'So, {echo}. Noted.'],
    plain: ['Right.', 'Fine.'],
    followUps: ["That's too short. Give me specifics.", 'Be more concrete. What exactly happened?'],
    next: ['Next:', 'Moving on.'],
    first: ["Let's start{name}.", 'Right{name}, first question.'],
    repeat: ['Again:', "I'll repeat it once:"],
    silence: ['I need an answer.', "Go ahead whenever you're ready."],
    skip: ['Fine, skipping it.', 'Okay, next.'],
    resume: ['My question:', 'Back to it:'],
    closing: ["That's all my questions. Thanks{name}.", "We're done. Thanks for your time{name}."],
    goodbye: ["Fine, we'll stop here. Thanks{name}.", 'Okay, ending it here{name}.'],
    afterClose: ["We're already done. Thanks."],
  },
  assertive: {
    echo: ['Good. You said {echo}.', 'Clear. So, {echo}.'],
    plain: ['Good.', 'Clear.'],
    followUps: [
      'I need more detail than that. Walk me through a specific example.',
      'Give me one concrete example, please.',
    ],
    next: ["Let's keep moving. Next:", 'Next, I want to know this:'],
    first: ["Let's get right to it{name}.", "Good to have you{name}. Let's begin."],
    repeat: ["I'll say it again:", "Here's the question once more:"],
    silence: ['Take a moment, then give me your answer.', "I'll give you a moment to think."],
    skip: ["Alright, we'll skip that, but keep it in mind.", 'Fine, moving on.'],
    resume: ['Back to my question:', 'Now, answer this:'],
    closing: [
      "That's everything I needed to cover. Thank you for your time{name}.",
      "We've covered all my questions. Thank you{name}, good work.",
    ],
    goodbye: [
      "Understood, we'll end it now. Thank you{name}.",
      "Alright, let's close it there. Thank you{name}.",
    ],
    afterClose: ["We've already finished. Thank you again."],
  },
  neutral: {
    echo: ['Thank you. You mentioned {echo}.', 'Okay. So, {echo}.'],
    plain: ['Thank you.', 'Okay, thank you.'],
    followUps: ['Could you tell me more about that?', 'Could you give an example?'],
    next: ['Next question:', "Let's move on."],
    first: ["Let's begin{name}.", "Thank you for joining{name}. Let's start."],
    repeat: ['Sure. The question was:', 'Of course:'],
    silence: ['Take your time.', "Whenever you're ready."],
    skip: ["Okay, let's skip that one.", 'Alright, moving on.'],
    resume: ['Back to my question:', 'To return to my question:'],
    closing: [
      'That covers all of my questions. Thank you for your time{name}.',
      "That's the end of my questions. Thank you{name}.",
    ],
    goodbye: [
      "Okay, let's stop here. Thank you for your time{name}.",
      "Understood, we'll end the session here. Thank you{name}.",
    ],
    afterClose: ['The session has already ended. Thank you again.'],
  },
};

export function demeanorOf(value: string | null): Demeanor {
  const key = (value ?? '').trim().toLowerCase();
  return (DEMEANORS as readonly string[]).includes(key) ? (key as Demeanor) : 'neutral';
}

/** The words of a template before its first placeholder: what the engine looks for in its own past turns. */
export function templateMarker(template: string): string | null {
  const marker = normalize(template.split('{')[0]);
  return marker.split(' ').length >= 3 ? marker : null;
}

function markers(select: (p: Phrasing) => readonly string[]): string[] {
  return Object.values(PHRASING)
    .flatMap(select)
    .map(templateMarker)
    .filter((m): m is string => m !== null);
}

// Every demeanor's sentences are recognised, so a transcript stays readable if the demeanor changes.
export const FOLLOW_UP_MARKERS = markers((p) => p.followUps);
export const CLOSING_MARKERS = markers((p) => [...p.closing, ...p.goodbye, ...p.afterClose]);
