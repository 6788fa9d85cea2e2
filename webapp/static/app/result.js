// A dice result (engine.dice to_dict) as elements: every face shown; aces marked !, dropped and
// re-rolled faces struck through, successes highlighted, cancelling ones marked.
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

const dice = (list) => html`<span class="dice">${list.map(die)}</span>`;

function modifierLabel(label) {
  return {
    trait_bonus: t("trait bonus"), unskilled: t("unskilled"), joker: t("Joker"),
    wounds: t("wounds"), fatigue: t("fatigue"), distracted: t("Distracted"),
    multi_action: t("multi-action"),
  }[label] || "";
}

function modifiers(mods) {
  if (!mods || !mods.length) return null;
  return html`<span class="mods">${mods.map((m) => {
    const label = modifierLabel(m.label);
    const value = m.value >= 0 ? `+${m.value}` : `−${-m.value}`;
    return html`<span class="mod">${label ? `${value} ${label}` : value}</span>`;
  })}</span>`;
}

const total = (children, tone) => html`<strong class=${"total " + (tone || "")}>${children}</strong>`;

function outcomeWord(outcome) {
  return {
    critical_failure: t("critical failure"), failure: t("failure"),
    success: t("success"), raise: t("raise"), botch: t("botch"),
  }[outcome] || outcome;
}

const tone = (outcome) =>
  ({ critical_failure: "bad", botch: "bad", failure: "meh", success: "good", raise: "good" })[outcome] || "";

function expression(expr) {
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

const rollBody = (r) => r.results.map(expression);

function traitBody(r) {
  const raises = r.outcome === "raise" && r.raises > 1 ? ` ×${r.raises}` : "";
  return html`
    <div class="line">${t("Trait die")} ${dice(r.trait_die.dice)}
      ${r.wild_die ? html` · ${t("Wild Die")} ${dice(r.wild_die.dice)}` : null}</div>
    <div class="line">${modifiers(r.modifiers)}
      ${t("Total {total} vs TN {tn}", { total: r.total, tn: r.tn })}: ${total(outcomeWord(r.outcome) + raises, tone(r.outcome))}</div>`;
}

function damageOutcome(o) {
  if (!o) return null;
  if (o.kind === "wounds") {
    const text = t("Wounds: {count}", { count: o.wounds });
    return o.shaken ? `${text} + ${t("Shaken")}` : text;
  }
  return o.kind === "shaken" ? t("Shaken") : t("no effect");
}

function damageBody(r) {
  const outcome = damageOutcome(r.outcome);
  return html`
    ${expression(r.roll)}
    ${r.raise_die ? html`<div class="line">${t("raise")} ${dice(r.raise_die.dice)}</div>` : null}
    <div class="line">${modifiers(r.modifiers)} ${t("Damage")}: ${total(r.total)}
      ${r.toughness !== null ? html` · ${t("Toughness {value}", { value: r.effective_toughness ?? r.toughness })}: ${total(outcome, r.outcome && r.outcome.kind !== "none" ? "good" : "meh")}` : null}</div>`;
}

function poolBody(r) {
  let outcome;
  if (r.botch) outcome = total(t("botch"), "bad");
  else if (r.net <= 0) outcome = total(t("failure (no successes)"), "meh");
  else outcome = total(t("successes: {count}", { count: r.net }), "good");
  const flags = [r.specialty && t("specialty"), r.willpower && t("Willpower"),
    r.mode === "damage" && t("damage"), r.mode === "soak" && t("soak")].filter(Boolean);
  return html`
    <div class="line">${t("Dice: {count}, difficulty {difficulty}", { count: r.dice_count, difficulty: r.difficulty })}
      ${flags.length ? ` (${flags.join(", ")})` : ""}</div>
    <div class="line">${dice(r.dice)}
      ${r.bonus_dice.length ? html` + ${dice(r.bonus_dice)}` : null}</div>
    <div class="line">${t("Successes {successes}, ones {ones}", { successes: r.successes, ones: r.ones })} → ${outcome}</div>`;
}

function duelBody(r) {
  const notes = [];
  if (r.critical === "success") notes.push(t("critical success"));
  if (r.critical === "failure") notes.push(t("critical failure"));
  if (r.target !== null) notes.push(t("target {target}", { target: r.target }) + ": " + (r.success ? t("success") : t("failure")));
  return html`<div class="line">d10 ${dice([r.die])} ${modifiers(r.modifiers)} = ${total(r.total, r.success === false || r.critical === "failure" ? "bad" : "")}
    ${notes.length ? html` <span class="note">${notes.join("; ")}</span>` : null}</div>`;
}

const BODIES = { roll: rollBody, trait: traitBody, damage: damageBody, pool: poolBody, duel: duelBody };

export function ResultView({ result }) {
  const body = BODIES[result.kind];
  if (!body) return html`<div class="line">${JSON.stringify(result)}</div>`;
  return html`<div class="result">
    ${result.comment ? html`<div class="comment">${result.comment}</div>` : null}
    ${body(result)}
  </div>`;
}
