// Shared by the boards (loaded lazily with them): playing-card faces, state badges, and the
// command sender (POST with the scene's seq; 409 conflict when someone changed it first).
import { html, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { errorText, t } from "../../i18n.js";
import { haptic } from "../../telegram.js";

export const SUITS = { spades: "♠", hearts: "♥", diamonds: "♦", clubs: "♣" };
const RANKS = { 11: "J", 12: "Q", 13: "K", 14: "A" };

export function cardName(card) {
  if (!card) return "—";
  return card.joker ? t("Joker") : (RANKS[card.rank] || String(card.rank)) + SUITS[card.suit];
}

export function PlayingCard({ card }) {
  if (!card) return html`<span class="pc pc-none" aria-label=${t("No card")}>—</span>`;
  const red = card.suit === "hearts" || card.suit === "diamonds" || card.suit === "red";
  const cls = "pc" + (red ? " red" : "") + (card.joker ? " pc-joker" : "");
  return html`<span class=${cls} role="img" aria-label=${cardName(card)} data-card=${card.code}>
    <b>${card.joker ? "★" : RANKS[card.rank] || card.rank}</b><i>${card.joker ? t("Joker") : SUITS[card.suit]}</i></span>`;
}

export const conditionName = (kind) => ({
  shaken: t("Shaken"), stunned: t("Stunned"), distracted: t("Distracted"), vulnerable: t("Vulnerable"),
  entangled: t("Entangled"), bound: t("Bound"), defend: t("Defend"), support: t("Support"),
  aim: t("Aim"), prone: t("Prone"),
}[kind] || kind);

export const CONDITIONS = ["distracted", "vulnerable", "entangled", "bound", "prone", "shaken", "stunned"];

export function Badges({ m }) {
  const b = [];
  if (m.wild) b.push(["benny", t("Bennies: {count}", { count: m.bennies })]);
  if (m.dead) b.push(["bad", t("dead")]);
  else if (m.bleeding_out) b.push(["bad", t("Bleeding Out")]);
  else if (m.incapacitated) b.push(["bad", t("out")]);
  if (m.shaken) b.push(["warn", t("Shaken")]);
  if (m.stunned) b.push(["warn", t("Stunned")]);
  if (m.wounds) b.push(["bad", t("Wounds: {count}", { count: m.wounds })]);
  if (m.fatigue) b.push(["warn", t("Fatigue {level}", { level: m.fatigue })]);
  for (const c of m.conditions) b.push(["cond", conditionName(c.kind) + (c.kind === "support" ? ` +${c.value}` : "")]);
  if (!b.length) return null;
  return html`<span class="badges">${b.map(([kind, text]) => html`<span class=${"chip chip-" + kind}>${text}</span>`)}</span>`;
}

// Applies a projection only if it is not older than the one shown (pushes and responses race).
export function newer(old, next) {
  if (!old || !next || old.stream !== next.stream) return true;
  return next.seq >= old.seq;
}

export function useCommand(game, kind, scene, onScene) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  async function send(command, args) {
    if (busy) return false;
    setBusy(true);
    setError("");
    haptic("tap");
    const body = { command, ...(args || {}), seq: scene ? scene.seq : 0, stream: scene ? scene.stream : "" };
    try {
      const data = await request("POST", `/api/games/${encodeURIComponent(game.token)}/${kind}`, body);
      haptic("success");
      onScene(data[kind]);
      return true;
    } catch (e) {
      haptic("error");
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { send, busy, error };
}

export function Btn({ label, onClick, busy, kind, name }) {
  return html`<button type="button" class=${"act " + (kind || "")} disabled=${busy}
    data-command=${name} onClick=${onClick}>${label}</button>`;
}

export function ErrorLine({ text }) {
  return text ? html`<p class="error" role="alert">${text}</p>` : null;
}
