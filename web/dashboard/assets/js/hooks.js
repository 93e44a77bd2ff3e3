import { ApiError } from './api.js';
import { useCallback, useEffect, useRef, useState } from './lib.js';

/**
 * Loads data for a view: `{ data, error, loading, reload, setData }`. `load` runs again when a value
 * in `deps` changes; an answer that arrives after a newer request started is dropped.
 */
export function useApi(load, deps = []) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const generation = useRef(0);
  const reload = useCallback(() => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true, error: null }));
    Promise.resolve()
      .then(load)
      .then(
        (data) => mine === generation.current && setState({ data, error: null, loading: false }),
        (error) => mine === generation.current && setState({ data: null, error, loading: false }),
      );
  }, deps);
  useEffect(reload, [reload]);
  const setData = useCallback((update) => {
    setState((previous) => ({
      ...previous,
      data: typeof update === 'function' ? update(previous.data) : update,
    }));
  }, []);
  return { ...state, reload, setData };
}

/**
 * Runs an action (a form's submit, a button) with its busy flag and error:
 * `const [save, { busy, error }] = useAction(async (values) => …)`.
 */
export function useAction(action) {
  const [state, setState] = useState({ busy: false, error: null });
  const run = useCallback(
    async (...args) => {
      setState({ busy: true, error: null });
      try {
        const result = await action(...args);
        setState({ busy: false, error: null });
        return result;
      } catch (error) {
        setState({ busy: false, error });
        if (!(error instanceof ApiError)) console.error(error);
        return undefined;
      }
    },
    [action],
  );
  return [run, state];
}

/** The field an API error names (`error.param`), to mark that input invalid. */
export function fieldError(error, param) {
  return error instanceof ApiError && error.param === param ? error.message : null;
}
