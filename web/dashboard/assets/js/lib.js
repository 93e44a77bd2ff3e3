// The one place the UI library is imported from: Preact, its hooks and htm's tagged templates in
// one vendored module (docs/decisions/0007). Pages import from here, never from the vendor path.
export {
  createContext,
  html,
  render,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from '/dashboard-assets/vendor/htm-preact.js';
