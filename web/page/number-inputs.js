// The page's number inputs: the Settings' numbers (d, d_p, base, α, k, K) and the scheme
// parameters' inputs ([data-param], which may appear twice: in Settings and in a lane). A valid
// value applies at once; the complaint waits for `change`, so typing "1" on the way to "128" does
// not flash an error. Each field's rule and wording come from web/pipeline/state.js (FIELDS).
import { FIELDS, parseField } from '../pipeline/state.js';

/**
 * state(): the page's state (written in place); paramLabel(name): a parameter's label; errorBox:
 * the element showError writes into; showError(message) ('' hides it); onChange(): a value changed.
 * → { number(input, name, shown), param(input, complain), writeParams(except?) }.
 */
export function createNumberInputs({ state, paramLabel, errorBox, showError, onChange }) {
  const complaint = (shown, name) => `${shown} must be ${FIELDS[name][2]}; still using the last valid value.`;

  /** Every scheme-parameter input shows the state's value, except one being typed in. */
  function writeParams(except = null) {
    for (const input of document.querySelectorAll('[data-param]')) {
      if (input === except || input === document.activeElement) continue;
      input.value = String(state()[input.dataset.param]);
      input.removeAttribute('aria-invalid');
    }
  }

  return {
    writeParams,

    /** Wires one Settings number input to state[name]; shown: its name in messages. */
    number(input, name, shown) {
      const apply = (complain) => {
        const value = parseField(name, input.value);
        if (value === undefined || value === 0) {
          if (complain) showError(complaint(shown, name));
          return;
        }
        showError('');
        input.removeAttribute('aria-invalid');
        if (value !== state()[name]) { state()[name] = value; onChange(); }
      };
      input.addEventListener('input', () => apply(false));
      input.addEventListener('change', () => {
        apply(true);
        if (!errorBox.hidden) input.setAttribute('aria-invalid', 'true');
      });
    },

    /** An input or change event's target, if it is a [data-param] input; a valid value also updates its twins. */
    param(input, complain) {
      const name = input.dataset?.param;
      if (!name) return;
      const value = parseField(name, input.value);
      if (value === undefined) {
        if (complain) {
          showError(complaint(paramLabel(name), name));
          input.setAttribute('aria-invalid', 'true');
        }
        return;
      }
      if (errorBox.textContent.startsWith(`${paramLabel(name)} must be`)) showError('');
      input.removeAttribute('aria-invalid');
      if (value === state()[name]) return;
      state()[name] = value;
      writeParams(input);
      onChange();
    },
  };
}
