// Changes the page's URL (its query string: a tab, a filter, the chosen project) in place.
// Next's router picks up native history calls, so useSearchParams re-renders with the new
// params; router.replace would instead ask the server to render the page again and mount it
// afresh, dropping what the page holds (a comment being written, the terminal, scroll).
export function replaceUrl(url: string): void {
  window.history.replaceState(null, "", url);
}
