// The section navigation (nav.section-nav): marks the link of the section being read with
// aria-current (styled by styles/lab.css), from the sections' places on scroll and resize, at most
// once a frame. Its links are plain anchors, so the keyboard and the Back button work as usual.
import { afterNextFrame } from '../pipeline/tasks.js';

const nav = document.querySelector('.section-nav');
const links = [...nav.querySelectorAll('a[href^="#"]')]
  .map((link) => ({ link, section: document.getElementById(link.hash.slice(1)) }))
  .filter(({ section }) => section);

let queued = false;
let marked; // the entry whose link carries aria-current (undefined: not read yet)
function mark() {
  queued = false;
  // The section being read: the last one whose top has passed a line a third of the way down
  // the window (below the sticky bar); in page order, whatever the order of the links.
  const line = innerHeight / 3;
  let current = null;
  let best = -Infinity;
  for (const entry of links) {
    const { top } = entry.section.getBoundingClientRect();
    if (top <= line && top > best) { best = top; current = entry; }
  }
  if (current === marked) return;
  marked = current;
  for (const entry of links) {
    if (entry === current) entry.link.setAttribute('aria-current', 'true');
    else entry.link.removeAttribute('aria-current');
  }
}
// The places are read in a task after the frame, not in its animation callbacks: there they
// would lay out whatever the page wrote since the last frame (at load, the whole page) before
// the frame's own layout, which then runs again for the callbacks' writes, in one task.
const queue = () => {
  if (!queued) { queued = true; afterNextFrame().then(mark); }
};
addEventListener('scroll', queue, { passive: true });
addEventListener('resize', queue);
queue();
