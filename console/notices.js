// The console's one way of saying "still loading" and "that failed": the same markup on every screen,
// which the tests and the screen readers find by its class and role.
import { html } from './html.js';

/** `what` is the whole sentence, such as "Loading keys…". */
export function Loading({ what }) {
  return html`<p class="loading">${what}</p>`;
}

/** Nothing while there is no message, so a screen can place it where an error would show. */
export function ErrorMessage({ message }) {
  return message ? html`<p class="error" role="alert">${message}</p>` : null;
}
