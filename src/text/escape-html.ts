/**
 * Text made safe to put between HTML tags or in a quoted attribute: the five characters HTML gives
 * meaning to, as entities. One escaper for every page we render: the engine's own (src/http), its
 * documents (src/documents) and the simulator's checkout.
 */
const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
