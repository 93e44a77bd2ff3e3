// Words that ask about the same thing. A question rarely uses the fact's own words ("What is your
// timeline?" → "live before peak season in four months"), so both are tagged with the concepts
// their words belong to, and the ranking matches on the tags as well as on the words.
import nlp from 'compromise';
import { stemmer } from 'stemmer';

const CONCEPTS: Record<string, string> = {
  duration: 'long time hour hours minute minutes take takes spend spends lose day years been going',
  deadline:
    'timeline deadline when date live launch month months season quarter q1 q2 q3 q4 christmas due expect expected promised soon schedule june march july august year-end',
  money:
    'budget cost costs price money afford pay spend approved fund funding euro euros dollars salary invest expensive $ k 5k range compensation charge charging charged fee fees bill billed quote quoted rent cash',
  people:
    'who use user users staff employees people team size big dispatchers managers drivers engineers designer accountants dentists adults kids children pupils passengers guests travellers headcount members',
  pain: 'pain problem problems wrong issue issues challenge frustrating old outdated slow broken worry worries worried complain broke hard difficult biggest fail failed concern concerns affect affecting unreliable',
  success: 'success measure metric kpi worked work goal target rate improve rise outcome',
  need: 'must need needs require requirements requirement musthave musthaves dealbreaker dealbreakers essential first version mvp core main important should do priority',
  wish: 'nice optional wish extra later bonus',
  compliance: 'data store stored compliance regulation gdpr hipaa rules privacy security eu legal',
  systems:
    'come comes source integrate integration system systems connect export csv import api stack software tool tools technology erp crm platform spreadsheet excel',
  rivals:
    'competitor competitors vendor vendors alternative alternatives other evaluating compare rival rivals against competition provider providers',
  reason: 'why reason reasons because cause',
  today: 'today current currently now moment present process',
  decision: 'decide decided decision sign signs approve approves cfo owner purchase',
  history: 'before past previous history experience ago agency burned tried',
  update:
    'update updates updated report reports inform summary communicate communicated announced announce email letter told',
  overview:
    'company business overview about group organisation organization firm yourself background shop shops store bakery restaurant cafe clinic clinics agency',
  size: 'how many much number count',
  cancel: 'leave leaves cancel cancels churn quit stop stick stay',
  ask: 'asking asked request requests want wants',
  desire: 'want wants wanted target targets aim aims hope hopes ideal ideally prefer prefers',
  worry: 'worry worries worried risk risks concern',
  onboarding: 'onboarding tour welcome first-run signup',
  // A broader business vocabulary: the things buyers, customers, landlords and managers talk about.
  agreement:
    'contract contracts renewal renew renewing lease leases agreement agreements term terms expire expires expiry sign signing notice',
  mandate: 'boss ceo board management above pressure mandate cut cuts saving savings reduce reduction',
  volume: 'volume volumes tickets calls orders requests invoices transactions bookings throughput load',
  sites:
    'sites site locations location branches branch stores hotels warehouses depots offices plants studios fleet chain estate premises',
  concession: 'settle accept flexible flexibility compromise concede budge move deal middle offer',
  resolution: 'resolve resolution fix right refund replacement apology compensation comfortable expect sort',
  contact: 'rang ring phoned phone called hold waited helpline hotline line support',
  errors: 'mistake mistakes error errors wrong miskeyed typo rework incorrect',
  channels: 'channel channels social media facebook instagram tiktok linkedin advertising marketing ads',
  language: 'language languages english translation translate speak speaks bilingual',
  devices:
    'device devices phone phones mobile laptop laptops tablet tablets android iphone computer computers',
  connectivity: 'connectivity wifi wi-fi internet signal network offline coverage reception',
  decline:
    'drop drops dropped fall falls fell falling decline declines declined dip dips decrease decreases shrink shrinks slump',
  growth: 'grow grows grew growth increase increases increased rise rises rose boost',
  orders: 'order orders booking bookings book appointment appointments sign-up signup register enrol reserve',
};

/** Ways of saying "want" that share no word with it: "what would you like", "what are you hoping for". */
const WANTING =
  /\b(?:would|'d)(?: you| we| they)? (?:like|love|prefer)\b|\b(?:looking|hoping|aiming|pushing|holding out) (?:for|to get|to)\b|\bhoping\b|\b(?:you|they|he|she|we)(?: are|'re| is|'s)? after\?/gi;

/** The question with its ways of wanting said as "want". */
export const plainWants = (question: string) => question.replace(WANTING, ' want ');

/** Porter stem → the concept tags of that word. */
const TAGS = new Map<string, string[]>();
for (const [concept, list] of Object.entries(CONCEPTS)) {
  for (const word of list.split(' ')) {
    const stem = stemmer(word);
    // "want" and "wants" share a stem: each tag once, or a word with many forms would weigh more.
    const tags = TAGS.get(stem) ?? [];
    if (!tags.includes(`~${concept}`)) TAGS.set(stem, [...tags, `~${concept}`]);
  }
}

/** Words that carry no meaning of their own in a question. */
const STOPWORDS = new Set(
  (
    'a an the and or but of to in on at by for with from as into is are was were be been being am do does did ' +
    'have has had i me my we us our you your he she it its they them their this that these those what which ' +
    'would could can will shall may might there here just really very so then than if also any some please tell about ' +
    // Their contractions: "What's the catch?" asks about a catch, not about "what's".
    "what's where's who's how's when's it's that's there's here's i'm i've i'd i'll you're you've you'd you'll " +
    "we're we've we'd we'll they're they've they'd he's she's isn't aren't wasn't weren't don't doesn't didn't"
  ).split(' '),
);

/** One word of a question or a fact → its stem and its concept tags (or nothing for a stopword). */
export function indexTerms(term: string): string[] | null {
  const word = term.toLowerCase().replace(/^[^\p{L}\p{N}$]+|[^\p{L}\p{N}%]+$/gu, '');
  if (word.length === 0 || STOPWORDS.has(word)) return null;
  const stem = stemmer(baseOfIrregular(word));
  const tags = [...(TAGS.get(stem) ?? TAGS.get(word) ?? [])];
  // "How many…?" and "How much…?" are answered by the facts that hold a number.
  if (
    /\d|^(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|dozen|hundred|thousand|half)$/.test(word)
  )
    tags.push('~size');
  // "membership" holds "member", "ridership" "rider": the word it is made from matches too.
  const base = /^[a-z]{3,}(?=ship$)/.exec(word)?.[0];
  return base ? [stem, stemmer(base), ...tags] : [stem, ...tags];
}

const irregular = new Map<string, string>();

/**
 * "bought" → "buy", "paid" → "pay", "spoke" → "speak": past forms a stemmer cannot undo; and
 * "proudest" → "proud", "biggest" → "big" (compromise's lexicon; not comparatives: "longer than you" does
 * not answer "how long…?").
 */
function baseOfIrregular(word: string): string {
  if (!/^\p{L}{3,}$/u.test(word) || /ed$/.test(word)) return word;
  let base = irregular.get(word);
  if (base === undefined) {
    const doc = nlp(word);
    doc.compute('root');
    const t = doc.terms().json()[0]?.terms?.[0] as { tags: string[]; root?: string } | undefined;
    const inflected = ['PastTense', 'Participle', 'Superlative'].some((tag) => t?.tags.includes(tag));
    base = t?.root && inflected ? t.root : word;
    if (irregular.size > 50_000) irregular.clear();
    irregular.set(word, base);
  }
  return base;
}
