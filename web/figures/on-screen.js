// Whether a figure is on screen or about to be: one IntersectionObserver for every figure, with
// 300 px of margin so that a figure paints just before it scrolls in. Figures paint only then:
// painting what nobody is looking at costs the main thread its drawing and, for each canvas
// drawn, a copy of its pixels handed to the compositor at the next frame.
const watched = new WeakMap();
let observer = null;

/** Calls onChange(true | false) whenever `element` comes within the margin of the view or leaves it. */
export function watchOnScreen(element, onChange) {
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) watched.get(entry.target)?.(entry.isIntersecting);
  }, { rootMargin: '300px' });
  watched.set(element, onChange);
  observer.observe(element);
}
