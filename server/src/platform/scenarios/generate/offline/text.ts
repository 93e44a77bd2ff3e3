// Small string helpers shared by the fact extraction and the plans.

export function unique<T>(values: T[]): T[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = String(value).toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function titleCase(text: string): string {
  return text
    .split(/\s+/)
    .map((word) =>
      /^(?:of|for|and|the|in|to|a|an)$/i.test(word)
        ? word.toLowerCase()
        : /[A-Z].*[A-Z]|[+#./]/.test(word)
          ? word
          : word[0]!.toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join(' ');
}

export function sentenceCase(text: string): string {
  const trimmed = text.trim();
  return trimmed ? trimmed[0]!.toUpperCase() + trimmed.slice(1) : trimmed;
}

export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`;
}

export function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
