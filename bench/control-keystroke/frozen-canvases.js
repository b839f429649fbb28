// The canvases of a page frozen by bench/frozen-page.mjs: each is drawn again from the pixels it
// showed when the page was frozen (data-frozen-pixels, a PNG data URL), so the frozen page has the
// lab's pictures and, as there, a 2D context and a composited layer for each canvas.
for (const canvas of document.querySelectorAll('canvas[data-frozen-pixels]')) {
  const picture = new Image();
  picture.onload = () => canvas.getContext('2d').drawImage(picture, 0, 0);
  picture.src = canvas.dataset.frozenPixels;
}
