import { html } from "../html.js";
import { layout } from "./page.js";

/** The dashboard's login: an API key, posted once; the browser keeps a session cookie instead. */
export function loginPage(problem?: string): string {
  return layout(
    { title: "Log in" },
    html`<section class="login">
<h1>Operations dashboard</h1>
<p>Log in with an API key (<code>billing keys create --name ops</code>). A read-only key may look; acting on a charge needs a key allowed to.</p>
${problem ? html`<p class="error" role="alert" id="login-error">${problem}</p>` : ""}
<form method="post" action="/ops/login">
<label for="key">API key</label>
<input id="key" name="key" type="password" autocomplete="off" required>
<button type="submit">Log in</button>
</form>
</section>`,
  );
}
