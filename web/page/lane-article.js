// The page's lanes are made from index.html's templates, one article per scheme when first chosen.
import { SEEDED_NOTE, isSeeded } from '../pipeline/shared-rules.js';

/**
 * A scheme's lane: index.html's one lane template, headed by the scheme table's label (with a
 * badge when its position values are seeded), its figure slots named `<scheme>-<part>`, and the
 * scheme's own formula, about text, extras and caption from #lane-texts in place of the blanks.
 */
export function laneArticle(lab, scheme) {
  const { label } = lab.schemeTable.schemes.find((s) => s.name === scheme);
  const texts = document.getElementById('lane-texts').content.querySelector(`[data-scheme="${scheme}"]`);
  const article = document.importNode(document.getElementById('lane').content, true).firstElementChild;
  article.dataset.scheme = scheme;
  article.id = `lane-${scheme}`;
  const heading = article.querySelector('h3');
  heading.id = `lane-${scheme}-h`;
  heading.textContent = label;
  if (isSeeded(scheme)) heading.append(' ', Object.assign(document.createElement('span'), { className: 'badge', textContent: SEEDED_NOTE }));
  article.setAttribute('aria-labelledby', heading.id);
  // Each blank is the template's one element of its class (the caption sits inside the disclosure).
  for (const part of texts.children) article.querySelector(`.${part.classList[0]}`).replaceWith(document.importNode(part, true));
  if (texts.dataset.attentionHeading) article.querySelector('h4').textContent = texts.dataset.attentionHeading;
  for (const slot of article.querySelectorAll('[data-figure]')) slot.dataset.figure = `${scheme}-${slot.dataset.figure}`;
  return article;
}
