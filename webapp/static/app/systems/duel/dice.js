// The duel's check on the page: its entry in the roller's list and its result card.
import { html } from "../../../vendor/htm-preact-standalone.module.js";
import { dice, modifiers, total } from "../../dice-kit.js";
import { t } from "../../i18n.js";

function duelBody(r) {
  const notes = [];
  if (r.critical === "success") notes.push(t("critical success"));
  if (r.critical === "failure") notes.push(t("critical failure"));
  if (r.target !== null) notes.push(t("target {target}", { target: r.target }) + ": " + (r.success ? t("success") : t("failure")));
  return html`<div class="line">d10 ${dice([r.die])} ${modifiers(r.modifiers)} = ${total(r.total, r.success === false || r.critical === "failure" ? "bad" : "")}
    ${notes.length ? html` <span class="note">${notes.join("; ")}</span>` : null}</div>`;
}

export default {
  commands: () => [["duel", t("Duel check"), "+2 трюк"]],
  results: { duel: duelBody },
};
