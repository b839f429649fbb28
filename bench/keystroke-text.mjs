// The text the keystroke benches and tests type: the sentence of n tokens a row starts from, and
// the characters typed into it (bench/keystroke.mjs, bench/long-tasks.mjs, and
// bench/frozen-page.mjs, which freezes the page at the sentence its measured rows type into).
const WORDS = ('the quick brown fox jumps over a lazy dog while king and queen of the city watch from ' +
  'distant hill every day people walk along river to market where old man sells bread milk').split(' ');

/** The typed characters, cycled: spaces among them, so some keys add a token and some change one. */
export const TYPED = ' and the cat sat on the mat';

/** n words of WORDS, every 7th in turn (n tokens for the lab's tokenizer). */
export const sentence = (n) => Array.from({ length: n }, (_, i) => WORDS[(i * 7) % WORDS.length]).join(' ');
