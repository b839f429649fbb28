// ?embed=1 — the page inside someone's <iframe>: styles/page.css hides the header and footer. A classic
// script in <head> (the page's CSP allows no inline script), so the chrome never flashes.
if (new URLSearchParams(location.search).get('embed') === '1') document.documentElement.classList.add('embed');
