// Changes the page's URL (its query string: a tab, a filter, the chosen project) in place.
// Next's router picks up native history calls, so useSearchParams re-renders with the new
// params; router.replace would instead ask the server to render the page again and mount it
// afresh, dropping what the page holds (a comment being written, the terminal, scroll).
// Only for the page that is showing: a page left a moment ago (its data arriving after a click on
// a link) must not write its own path over the new page's.
export function replaceUrl(url: string): void {
  if (new URL(url, window.location.href).pathname !== window.location.pathname) return;
  window.history.replaceState(null, "", url);
}
