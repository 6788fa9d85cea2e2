// Savage Worlds' rolls on the page: the trait roll with its Wild Die and the damage roll
// against Toughness — their entries in the roller's list and their result cards.
import { html } from "../../../vendor/htm-preact-standalone.module.js";
import { dice, expression, modifiers, total } from "../../dice-kit.js";
import { t } from "../../i18n.js";

const LABELS = {
  trait_bonus: () => t("trait bonus"), unskilled: () => t("unskilled"), joker: () => t("Joker"),
  wounds: () => t("wounds"), fatigue: () => t("fatigue"), distracted: () => t("Distracted"),
  multi_action: () => t("multi-action"),
};

function outcomeWord(outcome) {
  return {
    critical_failure: t("critical failure"), failure: t("failure"),
    success: t("success"), raise: t("raise"),
  }[outcome] || outcome;
}

const tone = (outcome) =>
  ({ critical_failure: "bad", failure: "meh", success: "good", raise: "good" })[outcome] || "";

function traitBody(r) {
  const raises = r.outcome === "raise" && r.raises > 1 ? ` ×${r.raises}` : "";
  return html`
    <div class="line">${t("Trait die")} ${dice(r.trait_die.dice)}
      ${r.wild_die ? html` · ${t("Wild Die")} ${dice(r.wild_die.dice)}` : null}</div>
    <div class="line">${modifiers(r.modifiers, LABELS)}
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
    <div class="line">${modifiers(r.modifiers, LABELS)} ${t("Damage")}: ${total(r.total)}
      ${r.toughness !== null ? html` · ${t("Toughness {value}", { value: r.effective_toughness ?? r.toughness })}: ${total(outcome, r.outcome && r.outcome.kind !== "none" ? "good" : "meh")}` : null}</div>`;
}

export default {
  // [API name, label, placeholder, a bad text offers rolling it as plain dice]
  commands: () => [
    ["trait", t("Trait roll"), "d8+1 цн 4", true], // «2к6+1 удар мечом» typed as a trait roll
    ["damage", t("Damage"), "2d6+1 vs 6"],
  ],
  results: { trait: traitBody, damage: damageBody },
};
