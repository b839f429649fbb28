// The embed guide's (embed.html) copy buttons: one per snippet, a real <button> after its <pre>,
// named after what it copies. Without JavaScript the snippets stay selectable text.
// navigator.clipboard exists only in secure contexts (https, localhost); elsewhere the button
// selects the snippet and asks for the keyboard shortcut instead.
const live = document.createElement('p');
live.className = 'visually-hidden';
live.setAttribute('aria-live', 'polite');
document.body.append(live);

function say(button, label, message) {
  button.textContent = label;
  live.textContent = message;
  clearTimeout(button.resetTimer);
  button.resetTimer = setTimeout(() => { button.textContent = 'Copy'; }, 2000);
}

function selectText(node) {
  const range = document.createRange();
  range.selectNodeContents(node);
  const selection = getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

/** The heading a snippet sits under: its example's <h3>, else the nearest <h2> before it. */
function headingOf(pre) {
  const section = pre.closest('section');
  if (section) return section.querySelector('h3');
  let node = pre.previousElementSibling;
  while (node && node.tagName !== 'H2') node = node.previousElementSibling;
  return node;
}

document.querySelectorAll('main pre').forEach((pre, index) => {
  const code = pre.querySelector('code') ?? pre;
  // The heading names the snippet for screen readers ("Copy snippet 3: panel="pe"").
  const heading = headingOf(pre);
  const wrapper = document.createElement('div');
  wrapper.className = 'snippet';
  pre.replaceWith(wrapper);
  wrapper.append(pre);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', `Copy snippet ${index + 1}${heading ? `: ${heading.textContent}` : ''}`);
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(code.textContent);
      say(button, 'Copied', 'Snippet copied to the clipboard.');
    } catch {
      selectText(code);
      say(button, 'Selected', 'Snippet selected: press Control+C (Command+C on a Mac) to copy it.');
    }
  });
  wrapper.append(button);
});
