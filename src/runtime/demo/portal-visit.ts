import type { EngineContext } from "../../context/index.js";
import { createPortalLink } from "../../portal/index.js";

/**
 * A customer's visit to the portal, as a browser without JavaScript makes it: the magic link's
 * button opens a session (its cookie), the account page gives the form's CSRF token, and the
 * cancellation is confirmed. Only our own HTTP server is used, so the demo shows the same path customers take.
 */
export async function cancelThroughPortal(
  ctx: EngineContext,
  customerId: string,
  subscriptionId: string,
): Promise<void> {
  const link = await createPortalLink(ctx, { customerId, actor: "demo" });
  // The link's page holds the button whose POST opens the session.
  const token = new URL(link.url).searchParams.get("token") ?? "";
  const opened = await fetch(`${ctx.publicUrl}/portal/open`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: ctx.publicUrl, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }).toString(),
  });
  const cookie = opened.headers.get("set-cookie")?.split(";")[0];
  if (opened.status !== 303 || !cookie) throw new Error(`the portal link answered ${opened.status}`);
  const headers = { cookie };
  const page = await (await fetch(`${ctx.publicUrl}/portal`, { headers, redirect: "manual" })).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error("the portal page carried no form token");
  const confirmed = await fetch(`${ctx.publicUrl}/portal/subscriptions/${subscriptionId}/cancel`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, origin: ctx.publicUrl, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, confirm: "yes" }).toString(),
  });
  if (confirmed.status !== 303)
    throw new Error(`the portal answered ${confirmed.status} to the cancellation`);
}
