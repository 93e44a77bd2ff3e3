// Small DOM helpers shared by the room and the meeting page.

/** The element with `id`; throws when the page lacks it (a template and script out of step). */
export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`missing element #${id}`);
  return element;
}

/**
 * Shows one `<section class="screen">` and hides the others, then moves focus to its heading so
 * keyboard and screen-reader users land on the new step.
 */
export function showScreen(name) {
  const app = byId('app');
  for (const screen of app.querySelectorAll(':scope > .screen')) {
    screen.hidden = screen.id !== `screen-${name}`;
  }
  app.dataset.screen = name;
  const heading = document.querySelector(`#screen-${name} h1`);
  if (heading instanceof HTMLElement) heading.focus({ preventScroll: true });
}

export function setText(id, text) {
  byId(id).textContent = text ?? '';
}

/** `MM:SS`, or `H:MM:SS` past an hour. */
export function formatClock(totalSeconds) {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** "12 minutes", "1 hour 30 minutes". */
export function formatMinutes(minutes) {
  const total = Math.max(0, Math.round(minutes));
  const h = Math.floor(total / 60);
  const m = total % 60;
  const parts = [];
  if (h) parts.push(`${h} hour${h === 1 ? '' : 's'}`);
  if (m || !h) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
  return parts.join(' ');
}

export function firstName(name) {
  return (
    String(name ?? '')
      .trim()
      .split(/\s+/)[0] ?? ''
  );
}

/** "Elena Fischer" → "EF"; "" → "". */
export function initials(name) {
  const words = String(name ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => [...word][0].toUpperCase()).join('');
}

/**
 * Sets an `<img>` source, hiding the image when the URL is missing or fails to load; `fallback`
 * (an element showing the name's initials) takes its place then, so there is always a face.
 */
export function setImage(img, url, alt, fallback = null) {
  img.alt = alt ?? '';
  const missing = () => {
    img.hidden = true;
    if (fallback?.textContent) fallback.hidden = false;
  };
  if (fallback) fallback.hidden = true;
  if (!url) {
    missing();
    return;
  }
  img.hidden = false;
  img.addEventListener('error', missing, { once: true });
  img.src = url;
}
