/**
 * `load` run once and its promise shared, except that a rejected promise is forgotten: a failure
 * (a WASM file missing or unreadable for a moment) must not disable voice until the next restart.
 */
export function loadOnceUnlessFailed<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    if (!loading) {
      const attempt = load();
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = null;
      });
    }
    return loading;
  };
}
