// A dice result (engine.dice to_dict) as elements: every face shown; aces marked !, dropped and
// re-rolled faces struck through, successes highlighted, cancelling ones marked.
import { html } from "../vendor/htm-preact-standalone.module.js";
import { t } from "./i18n.js";

function Die({ die }) {
  const cls = ["die"];
  if (die.dropped || die.rerolled) cls.push("die-dropped");
  if (die.success) cls.push("die-success");
  if (die.cancels) cls.push("die-cancel");
  if (die.wild) cls.push("die-wild");
  if (die.exploded) cls.push("die-ace");
  return html`<span class=${cls.join(" ")}>${die.value}</span>`;
}

const Dice = ({ dice }) => html`<span class="dice">${dice.map((d) => html`<${Die} die=${d} />`)}</span>`;

function modifierLabel(label) {
  return {
    trait_bonus: t("trait bonus"), unskilled: t("unskilled"), joker: t("Joker"),
    wounds: t("wounds"), fatigue: t("fatigue"), distracted: t("Distracted"),
    multi_action: t("multi-action"),
  }[label] || "";
}

function Modifiers({ mods }) {
  if (!mods || !mods.length) return null;
  return html`<span class="mods">${mods.map((m) => {
    const label = modifierLabel(m.label);
    const value = m.value >= 0 ? `+${m.value}` : `−${-m.value}`;
    return html`<span class="mod">${label ? `${value} ${label}` : value}</span>`;
  })}</span>`;
}

const Total = ({ children, tone }) => html`<strong class=${"total " + (tone || "")}>${children}</strong>`;

function outcomeWord(outcome) {
  return {
    critical_failure: t("critical failure"), failure: t("failure"),
    success: t("success"), raise: t("raise"), botch: t("botch"),
  }[outcome] || outcome;
}

const tone = (outcome) =>
  ({ critical_failure: "bad", botch: "bad", failure: "meh", success: "good", raise: "good" })[outcome] || "";

function Expression({ expr }) {
  const parts = expr.tokens.map((tok) =>
    tok.kind === "dice"
      ? html`<span class="group"><code>${tok.notation}</code> <${Dice} dice=${tok.dice} /></span>`
      : html`<span class="lit">${tok.text.replace("-", "−")}</span>`);
  let total;
  if (!expr.counts_successes) total = html`<${Total}>${expr.total}<//>`;
  else if (expr.botch) total = html`<${Total} tone="bad">${t("botch")}<//>`;
  else total = html`<${Total}>${t("successes: {count}", { count: expr.total })}<//>`;
  return html`<div class="line">${parts} = ${total}</div>`;
}

function RollBody({ r }) {
  return html`${r.results.map((e) => html`<${Expression} expr=${e} />`)}`;
}

function TraitBody({ r }) {
  const raises = r.outcome === "raise" && r.raises > 1 ? ` ×${r.raises}` : "";
  return html`
    <div class="line">${t("Trait die")} <${Dice} dice=${r.trait_die.dice} />
      ${r.wild_die ? html` · ${t("Wild Die")} <${Dice} dice=${r.wild_die.dice} />` : null}</div>
    <div class="line"><${Modifiers} mods=${r.modifiers} />
      ${t("Total {total} vs TN {tn}", { total: r.total, tn: r.tn })}: <${Total} tone=${tone(r.outcome)}>${outcomeWord(r.outcome)}${raises}<//></div>`;
}

function damageOutcome(o) {
  if (!o) return null;
  if (o.kind === "wounds") {
    const text = t("Wounds: {count}", { count: o.wounds });
    return o.shaken ? `${text} + ${t("Shaken")}` : text;
  }
  return o.kind === "shaken" ? t("Shaken") : t("no effect");
}

function DamageBody({ r }) {
  const outcome = damageOutcome(r.outcome);
  return html`
    <${Expression} expr=${r.roll} />
    ${r.raise_die ? html`<div class="line">${t("raise")} <${Dice} dice=${r.raise_die.dice} /></div>` : null}
    <div class="line"><${Modifiers} mods=${r.modifiers} /> ${t("Damage")}: <${Total}>${r.total}<//>
      ${r.toughness !== null ? html` · ${t("Toughness {value}", { value: r.effective_toughness ?? r.toughness })}: <${Total} tone=${r.outcome && r.outcome.kind !== "none" ? "good" : "meh"}>${outcome}<//>` : null}</div>`;
}

function PoolBody({ r }) {
  let outcome;
  if (r.botch) outcome = html`<${Total} tone="bad">${t("botch")}<//>`;
  else if (r.net <= 0) outcome = html`<${Total} tone="meh">${t("failure")}<//>`;
  else outcome = html`<${Total} tone="good">${t("successes: {count}", { count: r.net })}<//>`;
  const flags = [r.specialty && t("specialty"), r.willpower && t("Willpower"),
    r.mode === "damage" && t("damage"), r.mode === "soak" && t("soak")].filter(Boolean);
  return html`
    <div class="line">${t("Dice: {count}, difficulty {difficulty}", { count: r.dice_count, difficulty: r.difficulty })}
      ${flags.length ? ` (${flags.join(", ")})` : ""}</div>
    <div class="line"><${Dice} dice=${r.dice} />
      ${r.bonus_dice.length ? html` + <${Dice} dice=${r.bonus_dice} />` : null}</div>
    <div class="line">${t("Successes {successes}, ones {ones}", { successes: r.successes, ones: r.ones })} → ${outcome}</div>`;
}

function DuelBody({ r }) {
  const notes = [];
  if (r.critical === "success") notes.push(t("critical success"));
  if (r.critical === "failure") notes.push(t("critical failure"));
  if (r.target !== null) notes.push(t("target {target}", { target: r.target }) + ": " + (r.success ? t("success") : t("failure")));
  return html`<div class="line">d10 <${Dice} dice=${[r.die]} /> <${Modifiers} mods=${r.modifiers} /> = <${Total} tone=${r.success === false || r.critical === "failure" ? "bad" : ""}>${r.total}<//>
    ${notes.length ? html` <span class="note">${notes.join("; ")}</span>` : null}</div>`;
}

const BODIES = { roll: RollBody, trait: TraitBody, damage: DamageBody, pool: PoolBody, duel: DuelBody };

export function ResultView({ result }) {
  const Body = BODIES[result.kind];
  if (!Body) return html`<div class="line">${JSON.stringify(result)}</div>`;
  return html`<div class="result">
    ${result.comment ? html`<div class="comment">${result.comment}</div>` : null}
    <${Body} r=${result} />
  </div>`;
}
