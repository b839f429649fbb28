// The text the keystroke benches and tests type: the sentence of n tokens a row starts from, and
// the characters typed into it (bench/keystroke.mjs, bench/long-tasks.mjs, and
// bench/frozen-page.mjs, which freezes the page at the sentence its measured rows type into).
import { MAX_TOKENS } from '../dist/pipeline/state.js'; // the page's cut (a built dist/, as every bench reads)

const WORDS = ('the quick brown fox jumps over a lazy dog while king and queen of the city watch from ' +
  'distant hill every day people walk along river to market where old man sells bread milk').split(' ');

/** The typed characters, cycled: spaces among them, so some keys add a token and some change one. */
export const TYPED = ' and the cat sat on the mat';

/** n words of WORDS, every 7th in turn (n tokens for the lab's tokenizer). */
export const sentence = (n) => Array.from({ length: n }, (_, i) => WORDS[(i * 7) % WORDS.length]).join(' ');

/**
 * Typing on: a key every TYPING_ON.everyMs for TYPING_ON.ms, at most TYPING_ON.keys keys (the
 * bound a row's starting tokens are set by; about 45 fit in the time here).
 */
export const TYPING_ON = Object.freeze({ ms: 3000, everyMs: 60, keys: 50 });

/** The tokens the first `keys` characters of TYPED add: a letter right after a typed space starts one. */
export function tokensTyped(keys) {
  let added = 0;
  for (let k = 1; k < keys; k++) if (TYPED[k % TYPED.length] !== ' ' && TYPED[(k - 1) % TYPED.length] === ' ') added++;
  return added;
}

/**
 * The tokens a row's sentence starts from, to measure `keys` typed keys at n tokens: n, or fewer
 * where those keys would take the text past the page's cut (MAX_TOKENS). Past it a key leaves the
 * kept tokens as they are, so the page computes nothing for it (a repeat), and it would not
 * measure a keystroke at n tokens.
 */
export const startingTokens = (n, keys) => Math.min(n, MAX_TOKENS - tokensTyped(keys));
