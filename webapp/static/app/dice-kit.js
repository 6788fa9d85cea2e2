// The parts a roll's result card and a system's roll form are built of (result.js and each
// system's dice.js, webapp/static/app/systems/<code>/): every face shown; aces marked !,
// dropped and re-rolled faces struck through, successes highlighted, cancelling ones marked.
// The pieces are plain functions, not components: a feed of 20 rolls has ~150 dice, and a
// Preact component per die made up most of the first render's script time.
import { html } from "../vendor/htm-preact-standalone.module.js";
import { t } from "./i18n.js";

function die(d) {
  let cls = "die";
  if (d.dropped || d.rerolled) cls += " die-dropped";
  if (d.success) cls += " die-success";
  if (d.cancels) cls += " die-cancel";
  if (d.wild) cls += " die-wild";
  if (d.exploded) cls += " die-ace";
  return html`<span class=${cls}>${d.value}</span>`;
}

export const dice = (list) => html`<span class="dice">${list.map(die)}</span>`;

// `labels`: a system's modifier labels (label -> () => its name); the user's own number has none
export function modifiers(mods, labels = {}) {
  if (!mods || !mods.length) return null;
  return html`<span class="mods">${mods.map((m) => {
    const label = labels[m.label] ? labels[m.label]() : "";
    const value = m.value >= 0 ? `+${m.value}` : `−${-m.value}`;
    return html`<span class="mod">${label ? `${value} ${label}` : value}</span>`;
  })}</span>`;
}

export const total = (children, tone) => html`<strong class=${"total " + (tone || "")}>${children}</strong>`;

export function expression(expr) {
  const parts = expr.tokens.map((tok) =>
    tok.kind === "dice"
      ? html`<span class="group"><code>${tok.notation}</code> ${dice(tok.dice)}</span>`
      : html`<span class="lit">${tok.text.replace("-", "−")}</span>`);
  let value;
  if (!expr.counts_successes) value = total(expr.total);
  else if (expr.botch) value = total(t("botch"), "bad");
  else value = total(t("successes: {count}", { count: expr.total }));
  return html`<div class="line">${parts} = ${value}</div>`;
}

export function Switch({ checked, onChange, label, name }) {
  return html`<label class="switch">
    <input type="checkbox" role="switch" name=${name} checked=${checked}
      onChange=${(e) => onChange(e.currentTarget.checked)} />
    <span class="track" aria-hidden="true"></span><span>${label}</span></label>`;
}
