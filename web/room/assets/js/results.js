// The participant's results after the call (docs/room.md, "Results"; docs/reports.md), when the
// scenario shares them: asked for only once the meeting has ended, and asked again while the
// analysis runs. With the quotes the scores rest on and the coach's comment, it prints as the
// learner report (room.css, @media print).

import { byId, setText } from './dom.js';

const POLL_MS = 3000;
const MAX_POLLS = 200;

function fillList(id, items, render) {
  const list = byId(id);
  list.replaceChildren(...items.map(render));
  list.hidden = items.length === 0;
}

function textItem(text) {
  const item = document.createElement('li');
  item.textContent = text;
  return item;
}

function goalItem(goal) {
  const item = document.createElement('li');
  item.className = 'results__goal';
  const head = document.createElement('div');
  head.className = 'results__goal-head';
  const name = document.createElement('span');
  name.className = 'results__goal-name';
  name.textContent = goal.name;
  const score = document.createElement('span');
  score.className = 'results__score';
  score.textContent = `${goal.score} / ${goal.score_max}`;
  head.append(name, score);
  const meter = document.createElement('meter');
  meter.min = goal.score_min;
  meter.max = goal.score_max;
  meter.value = goal.score;
  meter.setAttribute('aria-label', `${goal.name}: ${goal.score} of ${goal.score_max}`);
  const feedback = document.createElement('p');
  feedback.className = 'results__feedback';
  feedback.textContent = goal.feedback;
  item.append(head, meter, feedback);
  if (goal.evidence?.length) item.append(evidenceList(goal));
  return item;
}

/** The participant's own sentences the score rests on, each with when it was said. */
function evidenceList(goal) {
  const list = document.createElement('ul');
  list.className = 'results__evidence';
  list.setAttribute('aria-label', `What you said for ${goal.name}`);
  for (const quote of goal.evidence) {
    const item = document.createElement('li');
    const words = document.createElement('q');
    words.textContent = quote.text;
    const when = document.createElement('span');
    when.className = 'muted';
    when.textContent = ` at ${quote.start}`;
    item.append(words, when);
    list.append(item);
  }
  return list;
}

function showComment(comment) {
  byId('results-comment').hidden = !comment;
  if (!comment) return;
  setText('results-comment-text', comment.text);
  setText('results-comment-author', comment.author ? `— ${comment.author}` : '');
}

function render(results) {
  fillList('results-goals', results.goals, goalItem);
  fillList('results-strengths', results.strengths, textItem);
  fillList('results-growth', results.growth_areas, textItem);
  fillList('results-practise', results.practise_next, (entry) =>
    textItem(entry.goal ? `${entry.goal}: ${entry.text}` : entry.text),
  );
  showComment(results.coach_comment);
  byId('results-body').hidden = false;
  setText('results-status', '');
}

/** Shows the results section and fills it when the analysis is ready. */
export async function showResults(api) {
  const section = byId('ended-results');
  section.hidden = false;
  byId('ended-card').classList.add('card--wide');
  setText('results-status', 'Your results are being prepared…');
  byId('results-print').onclick = () => window.print();
  for (let poll = 0; poll < MAX_POLLS; poll += 1) {
    let answer;
    try {
      answer = await api.results();
    } catch (error) {
      if (error.status === 404) section.hidden = true;
      else setText('results-status', `Your results could not be loaded: ${error.message}`);
      return;
    }
    if (answer.status === 'ready' && answer.results) return render(answer.results);
    if (answer.status === 'unavailable') {
      setText('results-status', 'Your results are not available for this meeting.');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
