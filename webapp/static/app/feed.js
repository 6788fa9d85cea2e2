// The recent rolls, newest first. Sealed hidden rolls show only the receipt.
import { html, useState } from "../vendor/htm-preact-standalone.module.js";
import { request } from "./api.js";
import { errorText, locale, t } from "./i18n.js";
import { resultView } from "./result.js";

// "17:05" (ru) / "05:05 PM" (en) in local time, as toLocaleTimeString gives them with
// 2-digit hours and minutes, without Intl: its first use costs ~70 ms (ICU data).
const pad = (n) => String(n).padStart(2, "0");
function time(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const h = date.getHours();
  const m = pad(date.getMinutes());
  return locale === "en" ? `${pad(h % 12 || 12)}:${m} ${h < 12 ? "AM" : "PM"}` : `${pad(h)}:${m}`;
}

function RevealButton({ game, roll }) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  async function reveal() {
    setBusy(true);
    try {
      await request("POST", `/api/games/${encodeURIComponent(game.token)}/rolls/${roll.id}/reveal`);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return html`<button type="button" class="secondary" disabled=${busy} onClick=${reveal}>${t("Reveal")}</button>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}`;
}

// A roll's card: a plain function, not a component (20 on the first screen; see dice-kit.js).
function rollCard(game, roll) {
  const cls = ["card", "roll", roll.hidden ? "roll-hidden" : "", roll.sealed ? "roll-sealed" : ""];
  return html`<li key=${roll.id} class=${cls.join(" ")} data-roll-id=${roll.id}>
    <div class="roll-head">
      <span class="who">${roll.user.name}</span>
      ${roll.hidden ? html`<span class="badge">${roll.revealed_at ? t("revealed") : t("hidden")}</span>` : null}
      <time datetime=${roll.created_at}>${time(roll.created_at)}</time>
    </div>
    ${roll.sealed
      ? html`<p class="sealed"><span class="lock" aria-hidden="true"></span>${t("Hidden roll")} · ${t("receipt")} <code>${(roll.receipt || "").slice(0, 16)}</code></p>`
      : resultView(roll.result)}
    ${game.role === "gm" && roll.hidden && !roll.revealed_at && !roll.sealed
      ? html`<${RevealButton} game=${game} roll=${roll} />` : null}
  </li>`;
}

// `fight`: the system's fight rolls (cards first, newest fight steps), when it has any
export function Feed({ game, rolls, fight }) {
  return html`<section class="feed" aria-live="polite">
    <h2>${t("Recent rolls")}</h2>
    ${rolls.length === 0 && !fight ? html`<p class="hint">${t("No rolls yet.")}</p>` : null}
    <ul>${fight}${rolls.map((r) => rollCard(game, r))}</ul>
  </section>`;
}
