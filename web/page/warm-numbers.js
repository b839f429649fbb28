// The page's first locale-aware number format (toLocaleString('en-US'), Intl.NumberFormat) loads
// ICU's data, once: about 15 ms in headless Chromium, measured here. warmNumbers() pays it in a task
// of its own while the page waits for its first view, not inside the task that paints that view.
export function warmNumbers() {
  (0).toLocaleString('en-US');
}
