// How each persona demeanor phrases the engine's moves. Placeholders: {echo} is a phrase taken
// from the participant's answer; {name} is ", <participant name>" or empty.
import { DEMEANORS } from '../../../personas/schemas.ts';
import { normalize } from './text.ts';

type Demeanor = (typeof DEMEANORS)[number];

interface BasePhrasing {
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

const BASE: Record<Demeanor, BasePhrasing> = {
  friendly: {
    echo: [
      'So {echo}; thanks for sharing that.',
      "You mentioned {echo}, that's helpful.",
      '{echo}, got it, thank you.',
      "That's useful to know: {echo}.",
    ],
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
    echo: [
      "So {echo}; that's a useful data point.",
      'Understood: {echo}.',
      '{echo}, clear.',
      'Let me note that: {echo}.',
    ],
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
      'Thank you for being open about that; {echo}.',
      'So {echo}; that makes sense.',
      'I hear you: {echo}.',
      '{echo}, I appreciate you sharing that.',
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
    echo: [
      'Interesting, {echo}.',
      "Oh, {echo}? That's intriguing.",
      "{echo}, that's interesting.",
      "So {echo}; that's a good detail.",
    ],
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
    echo: ['Okay, {echo}!', 'Great detail: {echo}.', "{echo}, that's really helpful!", 'Thanks, so {echo}!'],
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
      "You said {echo}; I'm not fully convinced yet.",
      'So {echo}. That needs to hold up under scrutiny.',
      "{echo}, we'll see.",
      'Hm, {echo}.',
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
    echo: ['Cool, so {echo}.', 'Nice, {echo}.', '{echo}, gotcha.', 'Right, {echo}.'],
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
    echo: ['Right: {echo}.', '{echo}. Fine.', 'So, {echo}.', 'Okay, {echo}.'],
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
    echo: ['Good. You said {echo}.', 'Clear: {echo}.', '{echo}, good.', "So {echo}; that's concrete."],
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
    echo: ['You mentioned {echo}.', 'So {echo}; thank you.', '{echo}, understood.', 'Okay, {echo}.'],
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

/** Moves outside the script: small talk, rudeness, questions it parks, and the end of the script. */
interface Talk {
  /** "How are you? / Good weekend?" */
  howAreYou: readonly string[];
  /** "Hi, nice to meet you / thanks for making the time." */
  greet: readonly string[];
  /** The participant says they are nervous or tired. */
  reassure: readonly string[];
  /** A remark about the weather, the day or the week. */
  remark: readonly string[];
  /** A dig at the questions, the session or the persona. */
  rude: readonly string[];
  /** A question the persona does not answer here (personal, off-topic). */
  park: readonly string[];
  /** After the last step: the script is done (not a closing: the call goes on). */
  wrapUp: readonly string[];
  /** After the wrap-up: an invitation to ask; recognised later, so no placeholders. */
  invite: readonly string[];
  /** After answering a question once the script is done. */
  more: readonly string[];
}

const TALK: Record<Demeanor, Talk> = {
  friendly: {
    howAreYou: ["I'm doing well, thanks for asking!", 'Pretty good, thank you! Nice of you to ask.'],
    greet: ['Lovely to have you here{name}.', 'Great to see you{name}, thanks for coming.'],
    reassure: [
      "Don't worry, this is a safe space to practise.",
      "That's completely normal; we'll take it step by step.",
    ],
    remark: ['Ha, it really is!', "Isn't it just?"],
    rude: [
      "Fair enough, I'll try to make it worth your while.",
      "I hear you; let's make the most of it anyway.",
    ],
    park: ["Ha, that's a story for another time!", "Good question, but let's keep the focus on you for now."],
    wrapUp: ["That's all the questions I had{name}.", "Okay, that's the last of what I wanted to ask."],
    invite: [
      "Before we finish, is there anything you'd like to ask me?",
      'Do you have any questions for me?',
    ],
    more: ['Anything else on your mind?', 'Happy to answer anything else.'],
  },
  analytical: {
    howAreYou: ['Fine, thank you.', 'Good, thanks. Busy, but good.'],
    greet: ['Good to meet you{name}.', 'Thanks for making the time{name}.'],
    reassure: ['No need to worry; just think it through step by step.', 'Take it one question at a time.'],
    remark: ['Indeed.', 'True enough.'],
    rude: [
      'Noted. Let me make the questions count, then.',
      "Understood; let's see what we can get out of it.",
    ],
    park: ["That's outside what we're covering today.", "Let's keep that for another time."],
    wrapUp: ["That's everything on my list{name}.", 'Those were all my questions.'],
    invite: ['Do you have any questions for me before we close?', 'Is there anything you want to ask me?'],
    more: ['Anything else?', 'Any other questions?'],
  },
  empathetic: {
    howAreYou: [
      "I'm well, thank you for asking. How are you feeling?",
      "I'm good, thank you, it's kind of you to ask.",
    ],
    greet: ["It's really good to see you{name}.", "I'm glad you're here{name}."],
    reassure: [
      "It's okay to feel that way; there's no pressure here.",
      "That's understandable. We'll go at your pace.",
    ],
    remark: ['It really is.', "I know, isn't it?"],
    rude: [
      "That's fair to say, and I'd like this to be useful for you.",
      "I understand; let's try to make it worthwhile.",
    ],
    park: [
      "That's kind of you to ask, but today is about you.",
      "Let's save that for another time, if that's alright.",
    ],
    wrapUp: ["That's everything I wanted to ask you{name}.", "We've gone through all my questions."],
    invite: [
      "Is there anything you'd like to ask me before we finish?",
      "Is there anything else you'd like to talk about?",
    ],
    more: ['Is there anything else on your mind?', "Anything else you'd like to ask?"],
  },
  curious: {
    howAreYou: ['Good, thanks! Curious to hear your thoughts today.', "I'm well, thanks for asking!"],
    greet: ['Great to meet you{name}.', 'Glad you could make it{name}.'],
    reassure: [
      "No need to be nervous, I'm just curious how you think.",
      'Relax, there are no trick questions.',
    ],
    remark: ['Ha, true!', "It is, isn't it?"],
    rude: ['Fair! Maybe I can surprise you with the next one.', "Hm, fair enough. Let's see where it goes."],
    park: [
      "Ha, I'd love to chat about that another time.",
      "Interesting question, but let's stay with you for now.",
    ],
    wrapUp: ["That's everything I was curious about{name}.", 'Those were all my questions.'],
    invite: ['What would you like to ask me?', "Is there anything you're curious about on your side?"],
    more: ['Anything else you wonder about?', 'What else would you like to know?'],
  },
  enthusiastic: {
    howAreYou: ['Great, thanks for asking!', 'Really good, thanks! Excited for this.'],
    greet: ['So great to have you here{name}!', 'Thanks for coming{name}!'],
    reassure: ["No worries at all, you've got this!", "Totally normal! We'll have fun with it."],
    remark: ['Ha, totally!', 'Right?'],
    rude: ["Fair! Let's make the rest of it count then!", "Ha, okay! I'll try to make it worth it."],
    park: ["Ha, love that, but let's save it for later!", "Great question, but today's all about you!"],
    wrapUp: ["And that's all my questions{name}!", "That's everything I had for you!"],
    invite: ['Any questions for me?', "Is there anything you'd like to ask me?"],
    more: ['Anything else?', 'What else can I tell you?'],
  },
  critical: {
    howAreYou: ['Fine.', 'Busy, but fine.'],
    greet: ["Let's make good use of the time{name}.", 'Thanks for coming in{name}.'],
    reassure: ["Nerves are fine; vague answers aren't.", 'Take a breath and give me specifics.'],
    remark: ['If you say so.', 'Maybe.'],
    rude: ['Then give me answers that make them worth asking.', "Noted. It's your time to use well."],
    park: ["That's not what we're here for.", 'Not relevant today.'],
    wrapUp: ["That's all I needed to ask{name}.", 'Those were my questions.'],
    invite: ['Any questions for me?', 'Is there anything you want to ask me?'],
    more: ['Anything else?', 'Something else?'],
  },
  casual: {
    howAreYou: ['Good, thanks! You?', 'Not bad at all, cheers.'],
    greet: ['Hey{name}, good to see you.', 'Glad you made it{name}.'],
    reassure: ["No stress, it's just a chat.", "Relax, it's all good."],
    remark: ['Ha, tell me about it.', 'Yeah, totally.'],
    rude: ["Ha, fair. Let's keep it quick then.", "Fair enough, I'll keep it short."],
    park: ['Ha, another time!', "Let's leave that one for the pub."],
    wrapUp: ["That's all I had{name}.", "That's me done with questions."],
    invite: ['Anything you want to ask me?', 'Got any questions for me?'],
    more: ['Anything else?', 'What else?'],
  },
  blunt: {
    howAreYou: ['Fine, thanks.', 'Busy. Fine.'],
    greet: ["Let's get on with it{name}.", 'Thanks for coming{name}.'],
    reassure: ['Nerves are normal. Just answer straight.', "You'll be fine. Keep it simple."],
    remark: ['It is.', 'Sure.'],
    rude: ['Noted. Answer anyway.', "Maybe. We're doing it regardless."],
    park: ['Not today.', "Not what we're here for."],
    wrapUp: ["That's my questions done{name}.", 'Those were my questions.'],
    invite: ['Questions for me?', 'Anything you want to ask?'],
    more: ['Anything else?', 'What else?'],
  },
  assertive: {
    howAreYou: ["Good, thanks. Let's make this count.", 'Well, thank you.'],
    greet: ['Good to have you{name}.', 'Thanks for being on time{name}.'],
    reassure: ["You're prepared; trust that.", 'Breathe, then answer clearly.'],
    remark: ['Quite.', 'Agreed.'],
    rude: ['I hear you, and I still want good answers.', "Understood. Let's make it worth it."],
    park: ["Let's keep that for later.", "That's off topic for today."],
    wrapUp: ["That's everything I needed to cover{name}.", "We've gone through my list."],
    invite: ['What questions do you have for me?', 'Is there anything you want to ask me?'],
    more: ['Anything else?', 'What else do you need to know?'],
  },
  neutral: {
    howAreYou: ["I'm well, thank you for asking.", 'Fine, thanks.'],
    greet: ['Good to see you{name}.', 'Thank you for coming{name}.'],
    reassure: [
      "There's no need to worry; take it one step at a time.",
      "That's normal. We'll go step by step.",
    ],
    remark: ['It is, yes.', 'True.'],
    rude: ["I understand. Let's try to make it useful.", "Fair enough. Let's keep going."],
    park: ["Let's leave that for another time.", "That's a question for another day."],
    wrapUp: ["That's all my questions{name}.", "We've covered what I wanted to ask."],
    invite: ["Is there anything you'd like to ask me before we finish?", 'Do you have any questions for me?'],
    more: ['Anything else?', 'Is there anything else?'],
  },
};

export type Phrasing = BasePhrasing & Talk;

export const PHRASING = Object.fromEntries(DEMEANORS.map((d) => [d, { ...BASE[d], ...TALK[d] }])) as Record<
  Demeanor,
  Phrasing
>;

/** Demeanors customers write that the schema does not list, read as the nearest one it does. */
const DEMEANOR_SYNONYMS: Record<string, Demeanor> = {
  warm: 'friendly',
  kind: 'friendly',
  cheerful: 'friendly',
  welcoming: 'friendly',
  polite: 'friendly',
  supportive: 'empathetic',
  caring: 'empathetic',
  gentle: 'empathetic',
  patient: 'empathetic',
  calm: 'empathetic',
  understanding: 'empathetic',
  encouraging: 'enthusiastic',
  upbeat: 'enthusiastic',
  energetic: 'enthusiastic',
  excited: 'enthusiastic',
  positive: 'enthusiastic',
  professional: 'analytical',
  formal: 'analytical',
  methodical: 'analytical',
  precise: 'analytical',
  skeptical: 'critical',
  sceptical: 'critical',
  demanding: 'critical',
  tough: 'critical',
  impatient: 'critical',
  direct: 'blunt',
  terse: 'blunt',
  brusque: 'blunt',
  relaxed: 'casual',
  informal: 'casual',
  chatty: 'casual',
  confident: 'assertive',
  firm: 'assertive',
  inquisitive: 'curious',
};

export function demeanorOf(value: string | null): Demeanor {
  const key = (value ?? '').trim().toLowerCase();
  if ((DEMEANORS as readonly string[]).includes(key)) return key as Demeanor;
  return DEMEANOR_SYNONYMS[key] ?? 'neutral';
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
/** The invitation to ask after the last step: the script is done, the call goes on. */
export const WRAP_UP_MARKERS = Object.values(PHRASING)
  .flatMap((p) => p.invite)
  .map((line) => normalize(line));
