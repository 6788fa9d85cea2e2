// The game's readings of the duel rules (the Rules tab): where the seed leaves a rule open, its
// sentence, the choices and this game's one (GET .../duel/rules). The GM changes one with a tap
// (POST, the GM's alone); new duels take the game's readings, a running duel keeps its own —
// shown under each reading where it differs. Loaded when the tab is first opened.
import { html, useEffect, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { errorText, t } from "../../i18n.js";

const TITLES = () => ({
  dodge_tie: t("A tied dodge"),
  wrong_side_damage: t("A block on the wrong side lets through"),
  trick_tie: t("Two tricks that tie"),
  series_bonus: t("What a series of attacks gives"),
  unblockable_parry: t("A parry against an unblockable attack"),
  critical_clash: t("A critical defense against a critical attack"),
  top_opposite: t("The opposite side of a blow from the top"),
  idle_block_recovers: t("A block no attack came against"),
  full_dodge_covers_all: t("The kensei's full defense by dodging covers"),
  attack_fumble: t("A 1 on the attack's d10"),
  sp_cap: t("The most SP a fighter can have"),
  trick_contest: t("Two fighters who both try a trick"),
  exhaustion: t("Exhaustion after spending more SP than there is"),
});

function valueText(name, value) {
  if (name === "series_bonus") return value ? t("+{n} to each attack that goes on with the series", { n: value }) : t("nothing");
  if (name === "sp_cap") return value ? t("{n} SP", { n: value }) : t("no cap, as in the rules");
  return ({
    dodge_tie: { defense: t("goes to the defense (the dodge succeeds)"), attack: t("goes to the attack (the blow lands)") },
    wrong_side_damage: { half: t("X/4 — half the guaranteed damage"), guaranteed: t("X/2 — the whole guaranteed damage") },
    trick_tie: { both: t("both tricks succeed"), neither: t("neither trick succeeds") },
    unblockable_parry: { true: t("stops it"), false: t("does not stop it (only a dodge does)") },
    critical_clash: { defense: t("the defense wins"), attack: t("the critical attack's rule applies") },
    top_opposite: { none: t("there is none"), sides: t("either side, left or right") },
    idle_block_recovers: { true: t("restores 1 SP"), false: t("restores nothing") },
    full_dodge_covers_all: { true: t("every attack of the turn"), false: t("one attack, as a plain dodge") },
    attack_fumble: { miss: t("misses: a critical failure"), roll: t("is only a low roll") },
    trick_contest: { opposed: t("the higher result succeeds, even below 6"), checked: t("each needs 6+ first; of two successes the higher wins") },
    exhaustion: { counter: t("as many turns as the SP overspent, no more"), sp: t("those turns, and longer while SP are 0 or below") },
  }[name] || {})[String(value)] ?? String(value);
}

const key = (value) => JSON.stringify(value);

function Reading({ r, title, running, canChange, busy, onPick }) {
  const differ = running.filter((d) => key(d.rules[r.name]) !== key(r.value));
  return html`<section class="card reading" data-reading=${r.name}>
    <h3>${title}</h3>
    <blockquote class="seed">«${r.seed}»</blockquote>
    ${canChange ? html`<div class="choices" role="group" aria-label=${title}>${r.choices.map((c) => html`<button type="button"
      class=${"choice" + (key(c) === key(r.value) ? " on" : "")} aria-pressed=${key(c) === key(r.value)} data-value=${key(c)}
      disabled=${busy} onClick=${() => key(c) !== key(r.value) && onPick(r.name, c)}>${valueText(r.name, c)}${key(c) === key(r.default)
      ? html` <span class="hint">${t("(the default)")}</span>` : null}</button>`)}</div>`
    : html`<p class="current">${t("In this game: {value}", { value: valueText(r.name, r.value) })}</p>`}
    ${differ.map((d) => html`<p class="kept" data-kept=${d.thread}>${t("⚔️ The duel {a} — {b} keeps its own: {value}", { a: d.names[0], b: d.names[1], value: valueText(r.name, d.rules[r.name]) })}</p>`)}
  </section>`;
}

export function Rules({ game, running: live = "" }) {
  const path = `/api/games/${encodeURIComponent(game.token)}/duel/rules`;
  const [data, setData] = useState(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  // again after every snapshot (the GM changed a reading on another page or in the chat, or
  // the socket reconnected) and when a duel starts or ends (`live`: the running ones' streams)
  useEffect(() => { request("GET", path).then(setData, (e) => setError(errorText(e))); }, [game, live]);
  async function pick(name, value) {
    setBusy(true); setError("");
    try { setData(await request("POST", path, { name, value })); } catch (e) { setError(errorText(e)); } finally { setBusy(false); }
  }
  if (!data) return html`<p class="hint">${error || t("Loading…")}</p>`;
  const titles = TITLES();
  const { running } = data;
  const duels = running.map((d) => d.names.join(" — ")).join(", ");
  return html`<section class="board duel duel-rules">
    <h2>${t("Duel rules in this game")}</h2>
    <p class="hint">${t("Where the duel rules leave a rule open, each reading below decides it. New duels take the game's readings; a running duel keeps those it started with.")}</p>
    ${running.length ? html`<p class="running">${running.length === 1
      ? t("A duel is running: {duels}. It keeps its readings; a change here is for the next duels.", { duels })
      : t("Duels are running: {duels}. They keep their readings; a change here is for the next duels.", { duels })}</p>` : null}
    ${!data.can_change ? html`<p class="hint">${t("Only the GM changes them.")}</p>` : null}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${data.readings.map((r) => html`<${Reading} key=${r.name} r=${r} title=${titles[r.name] || r.name} running=${data.running}
      canChange=${data.can_change} busy=${busy} onPick=${pick} />`)}
  </section>`;
}
